import { z } from "zod";
import { Slot } from "./slot.ts";

// The review threads as the review commands carry them (`upsert_review_thread`,
// `save_review_threads`, `set_review_thread_status`) and the session record's `reviews` row reads
// them back. The spec names the commands and leaves the thread open; the shape is the one forge's
// thread store has always written, so a store on disk and the wire agree.

/** A thread's lifecycle: a worker reply makes it addressed; only the reviewer resolves. */
export const ReviewStatus = z.enum(["open", "addressed", "resolved", "outdated"]);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

/**
 * Where a thread sits. `context` holds the captured lines, FIRST the anchored line itself (line
 * `line` on `side` when captured); that first line is what re-finds the anchor after edits.
 * `content_hash` is that line's hash, decimal digits.
 */
export const ReviewAnchor = z.object({
  path: z.string(),
  side: z.enum(["old", "new"]),
  line: z.number().int().nonnegative(),
  content_hash: z.string().regex(/^\d+$/),
  context: z.array(z.string()),
  base_ref: z.string(),
}).strict();
export type ReviewAnchor = z.infer<typeof ReviewAnchor>;

/** Who wrote a turn: `"user"` or `{"agent": {"label": ...}}`. */
export const ReviewAuthor = z.union([
  z.literal("user"),
  z.object({ agent: z.object({ label: z.string() }).strict() }).strict(),
]);

/** One turn; `review_id` is the review round that sealed it (null: not yet filed). */
export const ReviewComment = z.object({
  author: ReviewAuthor,
  text: z.string(),
  at: z.string(),
  review_id: z.string().nullable(),
}).strict();
export type ReviewComment = z.infer<typeof ReviewComment>;

/** A thread: an anchor, its turns and state; `commit` is the commit scope (null: whole diff). */
export const ReviewThread = z.object({
  id: z.string().min(1),
  anchor: ReviewAnchor,
  comments: z.array(ReviewComment),
  status: ReviewStatus,
  created_at: z.string(),
  updated_at: z.string(),
  commit: z.string().nullable(),
}).strict();
export type ReviewThread = z.infer<typeof ReviewThread>;

/** A submitted review round (submit_review's reply): `number` is 1-based per (project, branch). */
export const ReviewSet = z.object({
  id: z.string(),
  number: z.number().int().positive(),
  summary: z.string().nullable(),
  created_at: z.string(),
}).strict();
export type ReviewSet = z.infer<typeof ReviewSet>;

/** One store's read: its value, or why it could not be read (never an empty list for a failure). */
const ReadOf = <T extends z.ZodType>(value: T) =>
  z.union([
    z.object({ outcome: z.literal("read"), value }).strict(),
    z.object({ outcome: z.literal("failed"), value: z.string() }).strict(),
  ]);

/** The session record's `reviews` row: threads and rounds, each read on its own. */
export const ReviewsRow = z.object({
  threads: ReadOf(z.array(ReviewThread)),
  reviews: ReadOf(z.array(ReviewSet)),
}).strict();

/**
 * `review_threads_changed {key, branch, reviews}`: forge's own update (the original's pages
 * re-read the record on a notice). A review write - a person's command or an agent's
 * review__reply / review__resolve - pushes the branch's `reviews` row to every seat on it.
 */
export const ReviewThreadsChanged = z.object({
  key: Slot,
  branch: z.string(),
  reviews: ReviewsRow,
}).strict();

/**
 * `review_activity_notice {key, branch, waiting, message}` (the original's update): at the end of
 * an agent's turn, one per review round it touched; `waiting` is how many of the round's comments
 * are still open. The message is worded as the original forge's `review` tool family words it.
 */
export const ReviewActivityNotice = z.object({
  key: Slot,
  branch: z.string(),
  waiting: z.number().int().nonnegative(),
  message: z.string(),
}).strict();
