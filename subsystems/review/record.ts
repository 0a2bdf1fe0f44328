/**
 * The review part of a session record read (spec: session rows `work`, `git`, `diff`; subscribe's
 * `review` flag): one scan (or a stored one still inside its window), the base answer the read
 * is entitled to, and both diff layers under one read budget. An ordinary read never checks the
 * base; a review-scoped read asks the base store (which waits only for a seat with no session).
 */
import type { BaseAnswer, BaseStore } from "./base.ts";
import { readDiff } from "./diff.ts";
import { DiffBudget } from "./diff_parse.ts";
import { type Patches, type Scan, scanWithPatches } from "./scan.ts";
import type { DiffContent, GitWorkView, WorkState } from "./wire.ts";

/** How the record is being read. */
export interface RecordOptions {
  baseStore: BaseStore;
  /** The subscribe's `review` flag: the review page's own read. */
  review: boolean;
  /** Whether the seat has a live session (a watch to deliver a kicked check). */
  hasSession: boolean;
  /** A stored scan still inside its window; omitted, the tree is scanned now. */
  scan?: Scan;
  /** The stored scan's own patch text, so its diff runs no git (see {@link Patches}). */
  patches?: Patches;
  /** The stored scan's diff, already read: only its base is restated for this read. */
  diff?: DiffContent;
  /** The diff's read budget (default: the spec's caps); a bench raises it to carry every file. */
  budget?: DiffBudget;
}

/** The rows a record carries from this subsystem, and the scan they came from. */
export interface ReviewRecord {
  work: WorkState;
  git: GitWorkView | null;
  diff: DiffContent;
  scan: Scan;
}

/** Read the `work`, `git` and `diff` rows for `cwd`. Never throws for a git failure. */
export async function readRecord(cwd: string, opts: RecordOptions): Promise<ReviewRecord> {
  // A fresh scan keeps its patches so each layer's git diff runs once for the whole record, and
  // parses each layer's files for this read's budget while git writes them.
  let scan = opts.scan;
  let patches = opts.patches;
  const stored = scan !== undefined;
  const budget = opts.budget ?? new DiffBudget();
  if (!scan) {
    ({ scan, patches } = await scanWithPatches(cwd, { baseStore: opts.baseStore, rows: budget }));
  }
  let base: BaseAnswer = opts.baseStore.ordinaryRead();
  let git = scan.git;
  if (opts.review && scan.facts.base_ref && scan.facts.base) {
    // A stored scan of a watched seat already knows whether the tracking ref exists (a ref
    // change pokes the watch and drops the store), so its probe runs no git.
    const known = stored && opts.hasSession ? scan.facts.base.remote_tracking : undefined;
    base = await opts.baseStore.reviewRead(scan.facts.base, opts.hasSession, known);
  }
  // The git row states the last completed measurement, which may have landed after the scan.
  if (git && (stored || opts.review)) git = { ...git, ...opts.baseStore.latest(cwd) };
  const diff = opts.diff
    ? restateBase(opts.diff, base)
    : await readDiff(cwd, scan, base, budget, patches);
  return { work: scan.work, git, diff, scan };
}

/**
 * A stored diff answered for this read: its layers as read, its base the one this read is
 * entitled to - carried only beside a branch layer (spec: session row `diff`).
 */
export function restateBase(diff: DiffContent, base: BaseAnswer): DiffContent {
  if (diff.branch_ahead === null) return diff;
  return { ...diff, base: base.base, base_error: base.base_error };
}
