import type {
  DiffFile,
  GitWorkView,
  LayerState,
  ReviewSet,
  ReviewThread,
  SessionSnapshot,
  Wire,
} from "../../../../protocol/mod.ts";
import {
  parseIgnoringUnknownFields,
  ReviewSet as ReviewSetSchema,
} from "../../../../protocol/mod.ts";

/**
 * The review page's parts of the seat record: a diff layer's files, the branch's commits, the
 * threads store's read. Their schemas are protocol/'s own (protocol/review_record.ts, review.ts),
 * the ones the server builds them with, and the session snapshot was read against them
 * (narrow.ts): nothing here reads them again. spec: session > diff, git, reviews.
 */
export type { DiffFile, DiffLine } from "../../../../protocol/mod.ts";

/** The files of a layer state (`"clean"`, `{"populated": {...}}`, `"scan_failed"`), or words. */
export function layerFiles(layer: LayerState | null | undefined): DiffFile[] | string {
  if (layer === "clean") return "clean";
  if (layer === "scan_failed") return "the scan failed";
  return layer ? layer.populated.files : "nothing to state";
}

/** The record's git and diff rows as the review page reads them. */
export function reviewRead(
  git: GitWorkView | null | undefined,
  diff: SessionSnapshot["diff"] | undefined,
) {
  return {
    defaultBranch: git?.default_branch ?? null,
    commits: git?.ahead?.commits ?? [],
    worktree: diff?.worktree,
    branchAhead: diff ? diff.branch_ahead : undefined,
    baseError: diff?.base_error ?? null,
  };
}

/** The threads store's read: the threads, or why they could not be read (in the store's words). */
export function threadsRead(
  reviews: SessionSnapshot["reviews"] | undefined,
): { threads: ReviewThread[]; failed: string | null } {
  const t = reviews?.threads;
  if (!t) return { threads: [], failed: null };
  return t.outcome === "read"
    ? { threads: t.value, failed: null }
    : { threads: [], failed: t.value };
}

/**
 * submit_review's reply (protocol/'s ReviewSet, or null when nothing was filed), read as
 * protocol/ reads it: a newer forge's added field is set aside.
 */
export function submitted(body: Wire): ReviewSet | null | string {
  if (body === null) return null;
  const read = parseIgnoringUnknownFields(ReviewSetSchema, body);
  return read.success ? read.data : JSON.stringify(body);
}
