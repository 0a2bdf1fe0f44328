/**
 * The answer of `answer_document_hand_off {key, id, answer}` (spec: client verbs): the reader's
 * decision, never a bare done. `{"approve": {"review_id", "note"}}` is the one signal an agent
 * may proceed on, `{"feedback": {"review_id", "note"}}` sends the document back for revision,
 * and `"not_now"` declines before anything opens. `review_id` is the review the viewer's finish
 * filed under the document's scope (null when nothing was commented); `note` the reader's own
 * words (null when none).
 */
import { z } from "zod";

const Verdict = z.object({ review_id: z.string().nullable(), note: z.string().nullable() })
  .strict();

/** The answer's wire schema, externally tagged like every enum on this wire. */
export const HandOffAnswer = z.union([
  z.literal("not_now"),
  z.object({ approve: Verdict }).strict(),
  z.object({ feedback: Verdict }).strict(),
]);
export type HandOffAnswer = z.infer<typeof HandOffAnswer>;

/**
 * Check a client's answer: the typed answer, or the refusal sentence naming the verb (a bare
 * `"done"`, a verdict missing its fields, anything else).
 */
export function parseHandOffAnswer(
  answer: unknown,
): { ok: true; answer: HandOffAnswer } | { ok: false; why: string } {
  const parsed = HandOffAnswer.safeParse(answer);
  if (parsed.success) return { ok: true, answer: parsed.data };
  return {
    ok: false,
    why: `answer_document_hand_off: ${JSON.stringify(answer)} is not an answer; ` +
      `send {"approve": {"review_id", "note"}}, {"feedback": {"review_id", "note"}} or "not_now"`,
  };
}

/** Whether the agent may proceed: only an approval says so. */
export function approves(answer: HandOffAnswer): boolean {
  return typeof answer === "object" && "approve" in answer;
}
