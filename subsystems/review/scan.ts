/**
 * One scan of a working tree gives the `work` row and the `git` row (spec: session table).
 * Stage one runs in parallel: `status --porcelain=v2 -z --branch` (then the untracked files'
 * counts), the worktree's one diff against HEAD (stats and hunks from one patch, parsed as git
 * writes it) and the default-branch refs with their commits (read from the ref files, refs.ts;
 * the top level is the tree itself when it holds `.git`).
 * Stage two, when a base resolved and HEAD or the base moved since the tree's last walk: the
 * chain ahead (`log --raw --numstat -z`), its count and the range's one diff, again in parallel.
 * For a record read, the worktree layer's files are finished between the two, so the range's
 * diff is parsed as git writes it from where they leave the read's budget.
 */
import { isDir } from "../../server/path_kind.ts";
import { type BaseStore, type BaseTarget } from "./base.ts";
import { type DiffBudget, type ParsedAhead } from "./diff_parse.ts";
import { diffLayer, type LayerOptions } from "./diff_layer.ts";
import { git, text } from "./git.ts";
import { defaultRefs, resolveDefault } from "./refs.ts";
import {
  LOG_FORMAT,
  parseLog,
  parsePorcelain,
  statsBlock,
  type StatusEntry,
  toFileStat,
} from "./parse.ts";
import { readUntracked, type UntrackedHeads, worktreeStats } from "./untracked.ts";
import { finishWorktree } from "./worktree_layer.ts";
import type { Ahead, GitWorkView, WorkState } from "./wire.ts";

/** git's empty tree: what an unborn branch's uncommitted layer is measured against. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** The chain ahead is capped at this walk (spec: "the chain is capped at the scan's walk"). */
export const CHAIN_CAP = 50;

/** What the scan learned that is not on the wire but that the diff and base reads need. */
export interface ScanFacts {
  /** The repository's top level (absolute), null outside a repo. */
  root: string | null;
  /** HEAD's commit id, null when unborn or outside a repo. */
  head: string | null;
  /** The ref the branch layer is measured against (`refs/remotes/origin/main`), or null. */
  base_ref: string | null;
  /** The base target for the base store, null when no default branch resolved. */
  base: BaseTarget | null;
  /** True when the branch has commits ahead of `base_ref` (the branch layer exists). */
  has_branch_layer: boolean;
  /** True when the walk ahead of `base_ref` failed (the branch layer is scan_failed). */
  branch_failed: boolean;
  /** The uncommitted layer's entries, as porcelain v2 gave them. */
  entries: StatusEntry[];
}

/** A scan: the two wire rows and the facts behind them. */
export interface Scan {
  work: WorkState;
  git: GitWorkView | null;
  facts: ScanFacts;
}

/**
 * The patch text a record read reuses: the scan's own `--raw -z -p` output for each
 * layer (empty when nothing changed), so the record runs each git diff once. Null when the layer
 * was not diffed, or its patch was over the read cap.
 */
export interface Patches {
  worktree: Uint8Array | null;
  branch: Uint8Array | null;
  /**
   * The worktree layer's files, parsed as git wrote them for {@link ScanOptions.rows}, then
   * finished (unmerged entries stated, untracked files carried) as the read would finish them.
   */
  worktree_rows: ParsedAhead | null;
  /**
   * The branch layer's files, parsed as git wrote them for {@link ScanOptions.rows} from where
   * the finished worktree layer leaves it; null when the walk was reused and ran no diff.
   */
  branch_rows: ParsedAhead | null;
  /** Untracked files' heads, read once the status landed, for {@link ScanOptions.rows}. */
  untracked_heads: UntrackedHeads | null;
}

/** Scan knobs. */
export interface ScanOptions {
  /** Supplies `base`/`base_error` and receives the scan's kick (never waited on). */
  baseStore?: BaseStore;
  /** Chain cap, default {@link CHAIN_CAP}. */
  chainCap?: number;
  /**
   * A record read's diff budget: each layer's files are then parsed while git writes them, off
   * the read's critical path, and handed over as {@link Patches.worktree_rows} and
   * {@link Patches.branch_rows}, with the untracked files' heads read meanwhile
   * ({@link Patches.untracked_heads}).
   */
  rows?: DiffBudget;
}

const NO_FACTS: ScanFacts = {
  root: null,
  head: null,
  base_ref: null,
  base: null,
  has_branch_layer: false,
  branch_failed: false,
  entries: [],
};

/** Scan `cwd`. Never throws: every failure is a gate (`gone`, `not_a_repository`, ...). */
export async function scanTree(cwd: string, opts: ScanOptions = {}): Promise<Scan> {
  return (await scan(cwd, opts, false)).scan;
}

/** Scan `cwd` keeping each layer's patch text for the record's diff (see {@link Patches}). */
export function scanWithPatches(
  cwd: string,
  opts: ScanOptions = {},
): Promise<{ scan: Scan; patches: Patches }> {
  return scan(cwd, opts, true);
}

/** The status every scan runs beside its diff: branch, HEAD and every entry, untracked included. */
export const STATUS_ARGS = ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"];

const NO_PATCHES: Patches = {
  worktree: null,
  branch: null,
  worktree_rows: null,
  branch_rows: null,
  untracked_heads: null,
};

/**
 * The status, then what depends on it alone, read while the diff still runs: the untracked
 * files' line counts, and (for a record read's `rows`) their heads, from one read of each file.
 */
async function statusAndUntracked(cwd: string, root: Promise<string | null>, rows?: DiffBudget) {
  const status = await git(cwd, STATUS_ARGS);
  if (status.code !== 0) return { status, porcelain: null, untracked: null, heads: null };
  const porcelain = parsePorcelain(text(status.stdout));
  const top = await root;
  if (top === null) return { status, porcelain, untracked: null, heads: null };
  const reads = readUntracked(top, porcelain.entries, rows ? rows.fileCap - rows.files : 0);
  return { status, porcelain, untracked: await reads.lines, heads: rows ? reads.heads : null };
}

async function scan(
  cwd: string,
  opts: ScanOptions,
  keep: boolean,
): Promise<{ scan: Scan; patches: Patches }> {
  const gated = (gate: WorkState["gate"]) => ({ scan: gatedScan(gate), patches: NO_PATCHES });
  // spec: a tree that cannot be stat'ed is `gone`; the gate is the reason.
  if (!await isDir(cwd)) return gated("gone");
  // The diff is the long pole (~35 ms of a 200-file tree's ~45 ms record): it is spawned
  // first and parsed as it arrives; the status (~10 ms), the untracked files' counts and the
  // ref files are read while it runs.
  const diffing = diffLayer(cwd, "HEAD", { rows: opts.rows });
  const rootRead = topLevel(cwd);
  const [headDiff, { status, porcelain, untracked, heads }, root, refs] = await Promise.all([
    diffing,
    statusAndUntracked(cwd, rootRead, opts.rows),
    rootRead,
    defaultRefs(cwd),
  ]);
  if (!porcelain) {
    const notRepo = /not a git repository/i.test(status.stderr_line);
    return gated(notRepo ? "not_a_repository" : "scanner_failed");
  }
  if (root === null || untracked === null || refs.code !== 0) return gated("scanner_failed");
  // An unborn branch has no HEAD to diff against: its uncommitted layer is against the empty tree.
  const wt = porcelain.head ? headDiff : await diffLayer(cwd, EMPTY_TREE, { rows: opts.rows });
  if (wt.code !== 0) return gated("scanner_failed");
  const counts = new Map(wt.stats.map((r) => [r.path, r]));
  const worktreeFiles = worktreeStats(porcelain.entries, counts, untracked);

  // A record read's worktree layer is finished here as the read would finish it, so that the
  // branch layer's files can be parsed as git writes them from where the worktree's leave the
  // read's budget. It starts in a microtask: after the branch walk below has spawned its git,
  // whose output waits for it.
  const rows = opts.rows && porcelain.entries.length ? wt.rows : null;
  const finished = rows && Promise.resolve()
    .then(() => finishWorktree(rows.parsed, porcelain.entries, root, rows.spent, heads))
    .then(() => rows.spent);
  const branchFrom = finished ?? (porcelain.entries.length ? undefined : opts.rows);
  const def = resolveDefault(refs.out);
  const baseTarget: BaseTarget | null = def
    ? { cwd, branch: def.branch, remote: "origin", remote_tracking: def.remote }
    : null;
  let ahead: Ahead | null | "failed" = null;
  let baseRef: string | null = null;
  let branchPatch: Uint8Array | null = null;
  let branchRows: ParsedAhead | null = null;
  // On the local default itself there is nothing to be ahead of; on main with origin/main
  // as the base, the unpushed commits are the branch layer.
  if (def && porcelain.head && def.ref !== `refs/heads/${porcelain.branch}`) {
    baseRef = def.ref;
    const parse = branchFrom && { rows: opts.rows, from: branchFrom };
    const walked = await branchLayer(cwd, def, porcelain.head, opts.chainCap ?? CHAIN_CAP, parse);
    ahead = walked.ahead;
    branchPatch = walked.patch;
    branchRows = walked.rows;
  }
  await finished;
  if (baseTarget) opts.baseStore?.kick(baseTarget);
  const measured = opts.baseStore?.latest(cwd) ?? { base: null, base_error: null };
  const branched = keep && ahead !== null && ahead !== "failed";
  const patches: Patches = {
    worktree: keep ? wt.patch : null,
    branch: branched ? branchPatch : null,
    worktree_rows: keep ? wt.rows : null,
    branch_rows: branched ? branchRows : null,
    untracked_heads: keep ? heads : null,
  };
  const result: Scan = {
    work: { branch: porcelain.branch, changed: porcelain.entries.length, gate: "in_repo" },
    git: {
      default_branch: def?.branch ?? null,
      worktree: worktreeFiles.length ? statsBlock(worktreeFiles) : null,
      ahead: ahead === "failed" ? null : ahead,
      base: measured.base,
      base_error: measured.base_error,
    },
    facts: {
      root,
      head: porcelain.head,
      base_ref: baseRef,
      base: baseTarget,
      has_branch_layer: ahead !== null && ahead !== "failed",
      branch_failed: ahead === "failed",
      entries: porcelain.entries,
    },
  };
  return { scan: result, patches };
}

/**
 * The tree's top level, where porcelain paths are rooted: the tree itself when it holds `.git`
 * (a repository or a linked worktree - no git process for the common case), else git's
 * `rev-parse --show-toplevel`. Null when git could not say.
 */
async function topLevel(cwd: string): Promise<string | null> {
  try {
    await Deno.lstat(`${cwd}/.git`);
    return cwd;
  } catch {
    // No `.git` here: git says where the top is, if anywhere.
    const top = await git(cwd, ["rev-parse", "--show-toplevel"]);
    return top.code === 0 ? text(top.stdout).trim() : null;
  }
}

/** A walk of the branch layer: the chain ahead and the range's patch. */
interface Walk {
  ahead: Ahead | null | "failed";
  patch: Uint8Array | null;
}

/** The branch layer a tree last walked, keyed by the two commits it is a function of. */
interface WalkedBranch {
  key: string;
  walked: Walk;
}
const walkedBranches = new Map<string, WalkedBranch>();
const WALKED_KEEP = 64;
const WALKED_PATCH_BYTES = 8 * 1024 * 1024;

/**
 * The chain ahead and the range's stats and patch. Both are fixed by HEAD's commit and the
 * base ref's, so a tree whose two commits have not moved since its last walk reuses that walk
 * and runs no git for its branch layer (issue: "nothing repeated that the store holds").
 */
async function branchLayer(
  cwd: string,
  def: { ref: string; oid: string | null },
  head: string,
  cap: number,
  rows?: LayerOptions,
): Promise<Walk & { rows: ParsedAhead | null }> {
  const key = def.oid ? `${head}\0${def.ref}\0${def.oid}\0${cap}` : null;
  const held = walkedBranches.get(cwd);
  if (key && held?.key === key && (held.walked.patch !== null || held.walked.ahead === null)) {
    return { ...held.walked, rows: null };
  }
  const walked = await scanAhead(cwd, def.ref, cap, rows);
  walkedBranches.delete(cwd);
  if (key && walked.ahead !== "failed" && (walked.patch?.length ?? 0) <= WALKED_PATCH_BYTES) {
    // The files parsed for this read's budget are this read's alone.
    walkedBranches.set(cwd, { key, walked: { ahead: walked.ahead, patch: walked.patch } });
    // Oldest out first: a Map keeps insertion order.
    if (walkedBranches.size > WALKED_KEEP) {
      walkedBranches.delete(walkedBranches.keys().next().value!);
    }
  }
  return walked;
}

function gatedScan(gate: WorkState["gate"]): Scan {
  return { work: { branch: null, changed: null, gate }, git: null, facts: NO_FACTS };
}

async function scanAhead(
  cwd: string,
  baseRef: string,
  cap: number,
  rows?: LayerOptions,
): Promise<Walk & { rows: ParsedAhead | null }> {
  const failed = { ahead: "failed" as const, patch: null, rows: null };
  const [log, range] = await Promise.all([
    git(cwd, [
      "log",
      "--no-ext-diff",
      "-z",
      "--raw",
      "--numstat",
      "-M",
      "--no-textconv",
      `--max-count=${cap}`,
      LOG_FORMAT,
      `${baseRef}..HEAD`,
    ]),
    diffLayer(cwd, `${baseRef}...HEAD`, rows),
  ]);
  if (log.code !== 0 || range.code !== 0) return failed;
  const commits = parseLog(text(log.stdout));
  let commitCount = commits.length;
  // The walk is capped: only a chain that reached the cap needs the full count.
  if (commitCount >= cap) {
    const count = await git(cwd, ["rev-list", "--count", `${baseRef}..HEAD`]);
    if (count.code !== 0) return failed;
    commitCount = Number(text(count.stdout).trim());
  }
  if (!commitCount) return { ahead: null, patch: null, rows: null };
  return {
    ahead: {
      commit_count: commitCount,
      commits: commits.map((c) => ({
        sha: c.sha,
        subject: c.subject,
        stats: statsBlock(c.files.map(toFileStat)),
        committed: c.committed,
      })),
      stats: statsBlock(range.stats.map(toFileStat)),
    },
    patch: range.patch,
    rows: range.rows,
  };
}
