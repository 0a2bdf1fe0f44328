/**
 * The `diff` row (spec: session table): two layers, the worktree against HEAD (untracked files
 * included, as the `work` row counts them) and branch_ahead against the merge base, each
 * `"clean"`, `{"populated": ...}` or `"scan_failed"` (serde's external tagging, the convention
 * `{"behind": {"behind": N}}` follows). Data only: raw lines, never a rendering. Also
 * `commitDiff`, one commit's own diff on demand (spec: "What is not here"), same shape and caps.
 */
import type { BaseAnswer } from "./base.ts";
import { git } from "./git.ts";
import { claimAhead, DiffBudget, LineCutter, type ParsedFiles } from "./diff_parse.ts";
import { parseDiff } from "./patch_stream.ts";
import { diffArgs, PATCH_READ_CAP } from "./diff_layer.ts";
import { EMPTY_TREE, type Patches, type Scan } from "./scan.ts";
import { untrackedHead, type UntrackedHeads } from "./untracked.ts";
import type { DiffContent, DiffFile, LayerState } from "./wire.ts";

/**
 * Read both layers for a scan already taken, spending one budget across them. `base` is what the
 * base store answered for this read (ordinary or review-scoped); it is carried only beside a
 * branch layer, as is `base_error`. `patches` from {@link scanWithPatches} spare running each
 * git diff a second time (and parsing the worktree's again, when the scan parsed it for this
 * `budget`); a layer without one is diffed here.
 */
export async function readDiff(
  cwd: string,
  scan: Scan,
  base: BaseAnswer,
  budget = new DiffBudget(),
  patches?: Patches,
): Promise<DiffContent> {
  const gate = scan.work.gate;
  if (gate !== "in_repo") {
    const layer: LayerState = gate === "not_a_repository" ? "clean" : "scan_failed";
    return { worktree: layer, branch_ahead: null, base: null, base_error: null };
  }
  const f = scan.facts;
  const layerDiff = (have: Uint8Array | null | undefined, against: string) =>
    have
      ? { code: 0, stdout: have }
      : git(cwd, diffArgs(against, "patch"), { maxBytes: PATCH_READ_CAP });
  const [wt, br] = await Promise.all([
    f.entries.length ? layerDiff(patches?.worktree, f.head ?? EMPTY_TREE) : null,
    f.base_ref && f.has_branch_layer ? layerDiff(patches?.branch, `${f.base_ref}...HEAD`) : null,
  ]);
  let worktree: LayerState = "clean";
  if (wt) {
    if (wt.code !== 0) worktree = "scan_failed";
    else {
      // The scan's own parse, done while git wrote the patch, when it was made for this budget.
      const parsed = claimAhead(patches?.worktree_rows ?? null, budget) ??
        parseDiff(wt.stdout, budget);
      const unmerged = new Set(f.entries.filter((e) => e.status === "unmerged").map((e) => e.path));
      for (const file of parsed.files) if (unmerged.has(file.path)) file.status = "unmerged";
      const untracked = f.entries.filter((e) => e.status === "untracked").map((e) => e.path);
      await addUntracked(f.root!, untracked, parsed, budget, patches?.untracked_heads ?? null);
      worktree = populated(parsed);
    }
  }
  if (!f.base_ref) return { worktree, branch_ahead: null, base: null, base_error: null };
  let branch: LayerState = "clean";
  if (f.branch_failed) branch = "scan_failed";
  else if (br) branch = br.code === 0 ? populated(parseDiff(br.stdout, budget)) : "scan_failed";
  return { worktree, branch_ahead: branch, base: base.base, base_error: base.base_error };
}

function populated(p: ParsedFiles): LayerState {
  return p.total_files === 0 ? "clean" : { populated: p };
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

/** One commit's diff, or the reason it could not be read. */
export type CommitDiff = { ok: true; commit: string; diff: LayerState } | {
  ok: false;
  why: string;
};

/**
 * One commit's own diff against its first parent (the empty tree for a root commit), in the
 * layer shape and under the same caps. The revision is resolved to a commit id before git sees
 * it as anything else, so an option-shaped string fails as a revision.
 */
export async function commitDiff(
  cwd: string,
  sha: string,
  budget = new DiffBudget(),
): Promise<CommitDiff> {
  const commit = await resolveCommit(cwd, sha);
  if (!commit.ok) return commit;
  const parent = await git(cwd, ["rev-parse", "--verify", "--quiet", `${commit.id}^1`]);
  const from = parent.code === 0 ? new TextDecoder().decode(parent.stdout).trim() : EMPTY_TREE;
  const r = await git(cwd, [...diffArgs(from, "patch"), commit.id], { maxBytes: PATCH_READ_CAP });
  if (r.code !== 0) return { ok: true, commit: commit.id, diff: "scan_failed" };
  return { ok: true, commit: commit.id, diff: populated(parseDiff(r.stdout, budget)) };
}

/**
 * Resolve `rev` to a full commit id with `rev-parse --verify --end-of-options <rev>^{commit}`.
 * A revision starting with `-` is refused before git runs, so it can never be read as a flag.
 */
export async function resolveCommit(
  cwd: string,
  rev: string,
): Promise<{ ok: true; id: string } | { ok: false; why: string }> {
  if (rev === "" || rev.startsWith("-") || /[\0\n]/.test(rev)) {
    return { ok: false, why: `${JSON.stringify(rev)} is not a revision` };
  }
  const r = await git(cwd, [
    "rev-parse",
    "--verify",
    "--quiet",
    "--end-of-options",
    `${rev}^{commit}`,
  ]);
  const id = new TextDecoder().decode(r.stdout).trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(id)) {
    return { ok: false, why: `${JSON.stringify(rev)} does not name a commit here` };
  }
  return { ok: true, id };
}
