/**
 * The worktree layer of the `diff` row (spec: session table, `diff` row) finished from git's own
 * files: an unmerged entry stated unmerged, then the untracked files git's diff does not see,
 * each carried as a creation within the caps. A record read's scan finishes it ahead of the read
 * (on a copy of the read's budget); any other read finishes it in `readDiff`.
 */
import { type DiffBudget, LineCutter, type ParsedFiles } from "./diff_parse.ts";
import type { StatusEntry } from "./parse.ts";
import { untrackedHead, type UntrackedHeads } from "./untracked.ts";
import type { DiffFile } from "./wire.ts";

/**
 * Finish `parsed` (git's files for the worktree layer, parsed under `budget`) with the status's
 * `entries`, spending `budget` on the untracked files in status order. `heads` are the ones a
 * scan started reading early; a file without one is read now.
 */
export async function finishWorktree(
  parsed: ParsedFiles,
  entries: StatusEntry[],
  root: string,
  budget: DiffBudget,
  heads: UntrackedHeads | null,
): Promise<void> {
  const unmerged = new Set(entries.filter((e) => e.status === "unmerged").map((e) => e.path));
  for (const file of parsed.files) if (unmerged.has(file.path)) file.status = "unmerged";
  const untracked = entries.filter((e) => e.status === "untracked").map((e) => e.path);
  await addUntracked(root, untracked, parsed, budget, heads);
}

/** Untracked files are not in `git diff`; each is carried as a creation, read within the caps. */
async function addUntracked(
  root: string,
  paths: string[],
  into: ParsedFiles,
  budget: DiffBudget,
  heads: UntrackedHeads | null,
): Promise<void> {
  into.total_files += paths.length;
  for (const path of paths) {
    if (budget.files >= budget.fileCap) {
      into.files_capped = true;
      continue;
    }
    budget.files++;
    const file: DiffFile = {
      path,
      old_path: null,
      status: "untracked",
      binary: false,
      submodule: false,
      truncated: false,
      lines: [],
    };
    into.files.push(file);
    // The scan started this read when its status landed, for a record read; else it runs now.
    const read = await (heads?.get(path) ?? untrackedHead(root, path));
    if (read === null) continue;
    if (read.bytes.subarray(0, 8000).includes(0)) {
      file.binary = true;
      continue;
    }
    const lines = splitLines(read.bytes);
    // The last line of a read cut short is partial: drop it, the file is flagged truncated.
    if (read.partial) lines.pop();
    const cut = new LineCutter(file, budget);
    const header = `@@ -0,0 +1,${lines.length} @@`;
    cut.push({ kind: "hunk", text: header, old_line: 0, new_line: 1 }, header.length);
    lines.every((l, i) =>
      cut.push({ kind: "added", text: l.text, old_line: null, new_line: i + 1 }, l.size)
    );
    if (read.partial) file.truncated = true;
    if (cut.readCapped) into.bytes_capped = true;
  }
}

const dec = new TextDecoder();

function splitLines(bytes: Uint8Array): { text: string; size: number }[] {
  const out: { text: string; size: number }[] = [];
  let at = 0;
  while (at < bytes.length) {
    let nl = bytes.indexOf(10, at);
    if (nl < 0) nl = bytes.length;
    out.push({ text: dec.decode(bytes.subarray(at, nl)), size: nl - at });
    at = nl + 1;
  }
  return out;
}
