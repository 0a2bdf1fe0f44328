/**
 * The `diff` row (spec: session table): two layers, the worktree against HEAD (untracked files
 * included, as the `work` row counts them) and branch_ahead against the merge base, each
 * `"clean"`, `{"populated": ...}` or `"scan_failed"` (serde's external tagging, the convention
 * `{"behind": {"behind": N}}` follows). Data only: raw lines, never a rendering. Also
 * `commitDiff`, one commit's own diff on demand (spec: "What is not here"), same shape and caps.
 */
import type { BaseAnswer } from "./base.ts";
import { git } from "./git.ts";
import { claimAhead, DiffBudget, type ParsedFiles } from "./diff_parse.ts";
import { parseDiff } from "./patch_stream.ts";
import { diffArgs, PATCH_READ_CAP } from "./diff_layer.ts";
import { EMPTY_TREE, type Patches, type Scan } from "./scan.ts";
import { finishWorktree } from "./worktree_layer.ts";
import type { DiffContent, LayerState } from "./wire.ts";

/**
 * Read both layers for a scan already taken, spending one budget across them. `base` is what the
 * base store answered for this read (ordinary or review-scoped); it is carried only beside a
 * branch layer, as is `base_error`. `patches` from {@link scanWithPatches} spare running each
 * git diff a second time; a layer without one is diffed here. A layer the scan parsed for this
 * very `budget` is taken as parsed when the budget stands where that parse started: the worktree
 * layer finished (unmerged and untracked files in), then the branch layer, parsed from where the
 * worktree's left the budget.
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
  const taken = f.entries.length ? claimAhead(patches?.worktree_rows ?? null, budget) : null;
  const layerDiff = (have: Uint8Array | null | undefined, against: string) =>
    have
      ? { code: 0, stdout: have }
      : git(cwd, diffArgs(against, "patch"), { maxBytes: PATCH_READ_CAP });
  const [wt, br] = await Promise.all([
    f.entries.length && !taken ? layerDiff(patches?.worktree, f.head ?? EMPTY_TREE) : null,
    f.base_ref && f.has_branch_layer ? layerDiff(patches?.branch, `${f.base_ref}...HEAD`) : null,
  ]);
  let worktree: LayerState = taken ? populated(taken) : "clean";
  if (wt) {
    if (wt.code !== 0) worktree = "scan_failed";
    else {
      const parsed = parseDiff(wt.stdout, budget);
      await finishWorktree(parsed, f.entries, f.root!, budget, patches?.untracked_heads ?? null);
      worktree = populated(parsed);
    }
  }
  if (!f.base_ref) return { worktree, branch_ahead: null, base: null, base_error: null };
  let branch: LayerState = "clean";
  if (f.branch_failed) branch = "scan_failed";
  else if (br?.code === 0) {
    branch = populated(
      claimAhead(patches?.branch_rows ?? null, budget) ?? parseDiff(br.stdout, budget),
    );
  } else if (br) branch = "scan_failed";
  return { worktree, branch_ahead: branch, base: base.base, base_error: base.base_error };
}

function populated(p: ParsedFiles): LayerState {
  return p.total_files === 0 ? "clean" : { populated: p };
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
