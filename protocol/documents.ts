import { z } from "zod";
import { ReviewSet, ReviewThread } from "./review.ts";
import { Slot } from "./slot.ts";

// spec: What a client sends > document_read, answer_document_hand_off; What a client receives >
// document_read. The document viewer's wire: what a read detected and carries, and the reader's
// answer to a parked document hand-off.

/** The kind a read detected: `{"other": "<extension>"}` keeps an unrecognised one as itself. */
export const DocumentKind = z.union([
  z.enum(["markdown", "pdf", "text"]),
  z.object({ other: z.string() }).strict(),
]);
export type DocumentKind = z.infer<typeof DocumentKind>;

/** Where a thread's anchor sits in THIS document now (1-based line), or that it is gone. */
export const Resolution = z.union([
  z.object({ line: z.number().int().positive() }).strict(),
  z.literal("outdated"),
]);
export type Resolution = z.infer<typeof Resolution>;

/** A scope thread as the read carries it: `resolution` is null when the bytes are not text. */
export const DocumentThread = ReviewThread.extend({ resolution: Resolution.nullable() }).strict();
export type DocumentThread = z.infer<typeof DocumentThread>;

/**
 * The `document_read` answer: the seat it was read for, the resolved absolute path, the kind,
 * the bytes base64, whether the DOCUMENT is reviewable, its hash as decimal digits, and its
 * scope's threads and the reviews they were filed into.
 */
export const DocumentReadFrame = z.object({
  kind: z.literal("document_read"),
  session: Slot,
  path: z.string(),
  document_kind: DocumentKind,
  bytes: z.string(),
  reviewable: z.boolean(),
  content_hash: z.string().regex(/^\d+$/),
  threads: z.array(DocumentThread),
  reviews: z.array(ReviewSet),
}).strict();
export type DocumentReadFrame = z.infer<typeof DocumentReadFrame>;

const Verdict = z.object({ review_id: z.string().nullable(), note: z.string().nullable() })
  .strict();

/**
 * `answer_document_hand_off {key, id, answer}`'s answer: the reader's decision, never a bare
 * done. `{"approve": {review_id, note}}` is the one signal an agent may proceed on,
 * `{"feedback": {review_id, note}}` sends the document back for revision, and `"not_now"`
 * declines before anything opens. `review_id` is the review the viewer's finish filed under the
 * document's scope (null when nothing was commented); `note` the reader's own words (null: none).
 */
export const HandOffAnswer = z.union([
  z.literal("not_now"),
  z.object({ approve: Verdict }).strict(),
  z.object({ feedback: Verdict }).strict(),
]);
export type HandOffAnswer = z.infer<typeof HandOffAnswer>;
