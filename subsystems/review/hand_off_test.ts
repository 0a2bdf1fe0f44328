// spec: client verb answer_document_hand_off - approve / feedback with review_id and note, or
// "not_now"; never a bare done; only approval lets the agent proceed.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { approves, parseHandOffAnswer } from "./hand_off.ts";

Deno.test("hand_off: the three answers parse; approval alone lets the agent proceed", () => {
  const approve = parseHandOffAnswer({ approve: { review_id: "review-1", note: "ship it" } });
  deepStrictEqual(approve, {
    ok: true,
    answer: { approve: { review_id: "review-1", note: "ship it" } },
  });
  equal(approve.ok && approves(approve.answer), true);
  const feedback = parseHandOffAnswer({ feedback: { review_id: null, note: null } });
  equal(feedback.ok && approves(feedback.answer), false);
  const notNow = parseHandOffAnswer("not_now");
  deepStrictEqual(notNow, { ok: true, answer: "not_now" });
  equal(notNow.ok && approves(notNow.answer), false);
});

Deno.test("hand_off: a bare done or a verdict missing its fields is refused naming the verb", () => {
  for (
    const bad of ["done", { approve: {} }, { approve: { review_id: "r" } }, { reject: {} }, null]
  ) {
    const r = parseHandOffAnswer(bad);
    equal(r.ok, false);
    if (!r.ok) {
      equal(
        r.why.startsWith(`answer_document_hand_off: ${JSON.stringify(bad)} is not an answer`),
        true,
      );
    }
  }
});
