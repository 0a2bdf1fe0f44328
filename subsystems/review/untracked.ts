/**
 * Untracked files, which git's diff does not see (spec: session table, `git` and `diff` rows):
 * their line counts for the worktree stats, within bounds, and their heads for the `diff` row's
 * files. Both depend on the status alone, so a scan reads them while its diff still runs.
 */
import { FILE_BYTE_CAP } from "./diff_parse.ts";
import type { RawStat, StatusEntry } from "./parse.ts";
import type { FileStat } from "./wire.ts";

/** Untracked files are line-counted only up to these bounds; past them they count 0/0. */
const UNTRACKED_COUNT_FILES = 1000;
const UNTRACKED_COUNT_FILE_BYTES = 1024 * 1024;
const UNTRACKED_COUNT_TOTAL_BYTES = 16 * 1024 * 1024;

/**
 * Lines in each untracked entry under `root`, in status order, within the bounds above (the
 * first {@link UNTRACKED_COUNT_FILES} files, 1 MiB each, 16 MiB in all); a file past them, a
 * binary one or one that went is absent and counts 0.
 */
export async function untrackedLines(
  root: string,
  entries: StatusEntry[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let counted = 0;
  let budget = UNTRACKED_COUNT_TOTAL_BYTES;
  for (const e of entries) {
    if (e.status !== "untracked") continue;
    if (counted >= UNTRACKED_COUNT_FILES || budget <= 0) break;
    counted++;
    const n = await countLines(`${root}/${e.path}`, Math.min(budget, UNTRACKED_COUNT_FILE_BYTES));
    budget -= n.bytes;
    out.set(e.path, n.lines);
  }
  return out;
}

/**
 * The worktree layer's per-file stats in status order: tracked files from the diff's `counts`,
 * untracked ones from {@link untrackedLines}.
 */
export function worktreeStats(
  entries: StatusEntry[],
  counts: Map<string, RawStat>,
  untracked: Map<string, number>,
): FileStat[] {
  return entries.map((e) => {
    if (e.status === "untracked") {
      return { path: e.path, added: untracked.get(e.path) ?? 0, removed: 0, status: e.status };
    }
    const c = counts.get(e.path);
    return { path: e.path, added: c?.added ?? 0, removed: c?.removed ?? 0, status: e.status };
  });
}

/** Lines in a text file read whole within `limit`; a binary or larger file counts 0. */
async function countLines(path: string, limit: number): Promise<{ lines: number; bytes: number }> {
  try {
    const st = await Deno.lstat(path);
    if (!st.isFile || st.size > limit) return { lines: 0, bytes: 0 };
    const bytes = await Deno.readFile(path);
    if (bytes.subarray(0, 8000).includes(0)) return { lines: 0, bytes: bytes.length };
    let lines = 0;
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
    if (bytes.length && bytes[bytes.length - 1] !== 10) lines++;
    return { lines, bytes: bytes.length };
  } catch {
    // An untracked file that went before it was counted adds nothing to the stats.
    return { lines: 0, bytes: 0 };
  }
}

/** An untracked file's first bytes as the `diff` row carries them; `partial` when it is longer. */
export interface UntrackedHead {
  bytes: Uint8Array;
  partial: boolean;
}

/** Untracked files' heads whose reads a scan started early, by path. */
export type UntrackedHeads = Map<string, Promise<UntrackedHead | null>>;

/**
 * The heads of the first `max` untracked entries (a record's diff carries at most as many files
 * as its budget has left), read one after another from now, so they are in hand when the diff
 * lands. One at a time, as the diff would read them: a tree of many untracked files holds one of
 * them open at once, not hundreds.
 */
export function untrackedHeads(root: string, entries: StatusEntry[], max: number): UntrackedHeads {
  const out: UntrackedHeads = new Map();
  let last: Promise<unknown> = Promise.resolve();
  for (const e of entries) {
    if (out.size >= max) break;
    if (e.status !== "untracked") continue;
    const head = last.then(() => untrackedHead(root, e.path));
    out.set(e.path, head);
    last = head;
  }
  return out;
}

/**
 * The first bytes of an untracked file, one past the per-file byte cap (a symlink reads as its
 * target, as git stores it); null when it is neither a file nor a link, or went.
 */
export async function untrackedHead(root: string, path: string): Promise<UntrackedHead | null> {
  const limit = FILE_BYTE_CAP + 1;
  try {
    const st = await Deno.lstat(`${root}/${path}`);
    if (st.isSymlink) {
      return {
        bytes: new TextEncoder().encode(await Deno.readLink(`${root}/${path}`)),
        partial: false,
      };
    }
    if (!st.isFile) return null;
    using fh = await Deno.open(`${root}/${path}`);
    const buf = new Uint8Array(Math.min(limit, st.size));
    let got = 0;
    while (got < buf.length) {
      const n = await fh.read(buf.subarray(got));
      if (n === null) break;
      got += n;
    }
    return { bytes: buf.subarray(0, got), partial: st.size > got };
  } catch {
    // A file that went between the status and the read: no content, as for a deleted file.
    return null;
  }
}
