/**
 * One scan of a working tree gives the `work` row and the `git` row (spec: session table).
 * Stage one runs in parallel: `status --porcelain=v2 -z --branch`, the worktree's one diff
 * against HEAD (stats and hunks from one patch) and the default-branch refs with their commits
 * (read from the ref files, refs.ts; the top level is the tree itself when it holds `.git`).
 * Stage two, when a base resolved and HEAD or the base moved since the tree's last walk: the
 * chain ahead (`log --raw --numstat -z`), its count and the range's one diff, again in parallel.
 */
import { type BaseStore, type BaseTarget } from "./base.ts";
import { patchStats } from "./patch_stream.ts";
import { git, text } from "./git.ts";
import { defaultRefs } from "./refs.ts";
import {
  LOG_FORMAT,
  parseLog,
  parsePorcelain,
  parseRawNumstat,
  type RawStat,
  splitHeader,
  statsBlock,
  type StatusEntry,
  toFileStat,
} from "./parse.ts";
import type { Ahead, FileStat, GitWorkView, WorkState } from "./wire.ts";

/** git's empty tree: what an unborn branch's uncommitted layer is measured against. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** The chain ahead is capped at this walk (spec: "the chain is capped at the scan's walk"). */
export const CHAIN_CAP = 50;

/** Untracked files are line-counted only up to these bounds; past them they count 0/0. */
const UNTRACKED_COUNT_FILES = 1000;
const UNTRACKED_COUNT_FILE_BYTES = 1024 * 1024;
const UNTRACKED_COUNT_TOTAL_BYTES = 16 * 1024 * 1024;

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
 * layer, so the record runs each git diff once. Null when the layer was not diffed.
 */
export interface Patches {
  worktree: Uint8Array | null;
  branch: Uint8Array | null;
}

/** Scan knobs. */
export interface ScanOptions {
  /** Supplies `base`/`base_error` and receives the scan's kick (never waited on). */
  baseStore?: BaseStore;
  /** Chain cap, default {@link CHAIN_CAP}. */
  chainCap?: number;
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

/**
 * The diff every layer runs: raw records for status and paths, then the patch, whose lines the
 * scan counts itself (see {@link patchStats}); `numstat` asks git for the counts instead.
 */
export function diffArgs(against: string, mode: "patch" | "numstat"): string[] {
  const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--raw", "-z"];
  return [...args, mode === "patch" ? "-p" : "--numstat", against];
}

/** The status every scan runs beside its diff: branch, HEAD and every entry, untracked included. */
export const STATUS_ARGS = ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"];

/** Patch output is read up to this; a larger one is counted by git's numstat instead. */
export const PATCH_READ_CAP = 256 * 1024 * 1024;

/** One layer's stats, and its patch when it fitted the read cap. */
async function diffLayer(
  cwd: string,
  against: string,
): Promise<{ code: number; stats: RawStat[]; patch: Uint8Array | null }> {
  const r = await git(cwd, diffArgs(against, "patch"), { maxBytes: PATCH_READ_CAP });
  if (r.code === 0) {
    return { code: 0, stats: patchStats(r.stdout), patch: r.stdout.length ? r.stdout : null };
  }
  if (!r.oversize) return { code: r.code, stats: [], patch: null };
  const n = await git(cwd, diffArgs(against, "numstat"));
  return { code: n.code, stats: n.code === 0 ? rawStats(n.stdout) : [], patch: null };
}

const NO_PATCHES: Patches = { worktree: null, branch: null };

async function scan(
  cwd: string,
  opts: ScanOptions,
  keep: boolean,
): Promise<{ scan: Scan; patches: Patches }> {
  const gated = (gate: WorkState["gate"]) => ({ scan: gatedScan(gate), patches: NO_PATCHES });
  try {
    const st = await Deno.stat(cwd);
    if (!st.isDirectory) return gated("gone");
  } catch {
    // spec: a tree that cannot be stat'ed is `gone`; the gate is the reason.
    return gated("gone");
  }
  // The diff is the long pole (~35 ms of a 200-file tree's ~45 ms record): it is
  // spawned first, and the status (~10 ms) and the ref files are read while it runs.
  const [headDiff, status, root, refs] = await Promise.all([
    diffLayer(cwd, "HEAD"),
    git(cwd, STATUS_ARGS),
    topLevel(cwd),
    defaultRefs(cwd),
  ]);
  if (status.code !== 0) {
    const notRepo = /not a git repository/i.test(status.stderr_line);
    return gated(notRepo ? "not_a_repository" : "scanner_failed");
  }
  if (root === null || refs.code !== 0) return gated("scanner_failed");
  const porcelain = parsePorcelain(text(status.stdout));
  // An unborn branch has no HEAD to diff against: its uncommitted layer is against the empty tree.
  const wt = porcelain.head ? headDiff : await diffLayer(cwd, EMPTY_TREE);
  if (wt.code !== 0) return gated("scanner_failed");
  const counts = new Map(wt.stats.map((r) => [r.path, r]));
  const worktreeFiles = await worktreeStats(root, porcelain.entries, counts);

  const def = resolveDefault(refs.out);
  const baseTarget: BaseTarget | null = def
    ? { cwd, branch: def.branch, remote: "origin", remote_tracking: def.remote }
    : null;
  let ahead: Ahead | null | "failed" = null;
  let baseRef: string | null = null;
  let branchPatch: Uint8Array | null = null;
  // On the local default itself there is nothing to be ahead of; on main with origin/main
  // as the base, the unpushed commits are the branch layer.
  if (def && porcelain.head && def.ref !== `refs/heads/${porcelain.branch}`) {
    baseRef = def.ref;
    const walked = await branchLayer(cwd, def, porcelain.head, opts.chainCap ?? CHAIN_CAP);
    ahead = walked.ahead;
    branchPatch = walked.patch;
  }
  if (baseTarget) opts.baseStore?.kick(baseTarget);
  const measured = opts.baseStore?.latest(cwd) ?? { base: null, base_error: null };
  const patches: Patches = {
    worktree: keep ? wt.patch : null,
    branch: keep && ahead !== null && ahead !== "failed" ? branchPatch : null,
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

/** The branch layer a tree last walked, keyed by the two commits it is a function of. */
interface WalkedBranch {
  key: string;
  walked: { ahead: Ahead | null | "failed"; patch: Uint8Array | null };
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
): Promise<{ ahead: Ahead | null | "failed"; patch: Uint8Array | null }> {
  const key = def.oid ? `${head}\0${def.ref}\0${def.oid}\0${cap}` : null;
  const held = walkedBranches.get(cwd);
  if (key && held?.key === key && (held.walked.patch !== null || held.walked.ahead === null)) {
    return held.walked;
  }
  const walked = await scanAhead(cwd, def.ref, cap);
  walkedBranches.delete(cwd);
  if (key && walked.ahead !== "failed" && (walked.patch?.length ?? 0) <= WALKED_PATCH_BYTES) {
    walkedBranches.set(cwd, { key, walked });
    // Oldest out first: a Map keeps insertion order.
    if (walkedBranches.size > WALKED_KEEP) {
      walkedBranches.delete(walkedBranches.keys().next().value!);
    }
  }
  return walked;
}

/** The raw + numstat records of a diff layer's output (its patch, if any, left aside). */
function rawStats(bytes: Uint8Array): RawStat[] {
  return parseRawNumstat(splitHeader(bytes).header.split("\0"));
}

function gatedScan(gate: WorkState["gate"]): Scan {
  return { work: { branch: null, changed: null, gate }, git: null, facts: NO_FACTS };
}

/**
 * The default branch: origin/HEAD's target, else origin/main, origin/master, then the local
 * main or master. `remote` says the base is remote-tracking (a fetch can check it).
 */
export function resolveDefault(
  out: string,
): { branch: string; ref: string; remote: boolean; oid: string | null } | null {
  const have = new Map<string, string>();
  const oids = new Map<string, string>();
  for (const line of out.split("\n")) {
    if (!line) continue;
    const [ref, sym, oid] = line.split("\0");
    have.set(ref, sym ?? "");
    if (oid) oids.set(ref, oid);
  }
  const head = have.get("refs/remotes/origin/HEAD");
  if (head && head.startsWith("refs/remotes/origin/")) {
    const branch = head.slice("refs/remotes/origin/".length);
    // origin/HEAD's objectname is its target's commit.
    const oid = oids.get(head) ?? oids.get("refs/remotes/origin/HEAD") ?? null;
    return { branch, ref: head, remote: true, oid };
  }
  for (const b of ["main", "master"]) {
    const ref = `refs/remotes/origin/${b}`;
    if (have.has(ref)) return { branch: b, ref, remote: true, oid: oids.get(ref) ?? null };
  }
  for (const b of ["main", "master"]) {
    const ref = `refs/heads/${b}`;
    if (have.has(ref)) return { branch: b, ref, remote: false, oid: oids.get(ref) ?? null };
  }
  return null;
}

async function worktreeStats(
  root: string,
  entries: StatusEntry[],
  counts: Map<string, RawStat>,
): Promise<FileStat[]> {
  const out: FileStat[] = [];
  let counted = 0;
  let budget = UNTRACKED_COUNT_TOTAL_BYTES;
  for (const e of entries) {
    if (e.status !== "untracked") {
      const c = counts.get(e.path);
      out.push({ path: e.path, added: c?.added ?? 0, removed: c?.removed ?? 0, status: e.status });
      continue;
    }
    let added = 0;
    if (counted < UNTRACKED_COUNT_FILES && budget > 0) {
      counted++;
      const n = await countLines(`${root}/${e.path}`, Math.min(budget, UNTRACKED_COUNT_FILE_BYTES));
      budget -= n.bytes;
      added = n.lines;
    }
    out.push({ path: e.path, added, removed: 0, status: "untracked" });
  }
  return out;
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

async function scanAhead(
  cwd: string,
  baseRef: string,
  cap: number,
): Promise<{ ahead: Ahead | null | "failed"; patch: Uint8Array | null }> {
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
    diffLayer(cwd, `${baseRef}...HEAD`),
  ]);
  if (log.code !== 0 || range.code !== 0) return { ahead: "failed", patch: null };
  const commits = parseLog(text(log.stdout));
  let commitCount = commits.length;
  // The walk is capped: only a chain that reached the cap needs the full count.
  if (commitCount >= cap) {
    const count = await git(cwd, ["rev-list", "--count", `${baseRef}..HEAD`]);
    if (count.code !== 0) return { ahead: "failed", patch: null };
    commitCount = Number(text(count.stdout).trim());
  }
  if (!commitCount) return { ahead: null, patch: null };
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
  };
}
