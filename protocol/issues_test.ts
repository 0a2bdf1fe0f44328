// A refusal names the field and what it should have been, in forge's words: a tagged union's
// miss names its tags and the one sent; an externally tagged form missed by its key is drawn
// as that key.
import { z } from "zod";
import { assertEquals } from "../tests/assert.ts";
import { describeIssues } from "./issues.ts";

const Gesture = z.discriminatedUnion("type", [
  z.object({ type: z.literal("press"), x: z.number() }).strict(),
  z.object({ type: z.literal("text"), text: z.string() }).strict(),
]);
const Verdict = z.object({ note: z.string().nullable() }).strict();
const Answer = z.union([
  z.literal("not_now"),
  z.object({ approve: Verdict }).strict(),
  z.object({ feedback: Verdict }).strict(),
]);
const Message = z.object({ event: Gesture.optional(), answer: Answer.optional() }).strict();

function words(value: unknown): string {
  const parsed = Message.safeParse(value, { reportInput: true });
  if (parsed.success) throw new Error(`parsed: ${JSON.stringify(value)}`);
  return describeIssues(parsed.error);
}

Deno.test("describeIssues: a tagged union's miss names the tags and the one sent", () => {
  assertEquals(
    words({ event: { type: "fly" } }),
    'event.type: expected one of "press", "text", got "fly"',
  );
  assertEquals(words({ event: { type: 5 } }), 'event.type: expected one of "press", "text", got 5');
  assertEquals(words({ event: { x: 1 } }), 'event.type: missing (expected one of "press", "text")');
  assertEquals(words({ event: "press" }), "event: expected an object, got a string");
  assertEquals(words({ event: { type: "press" } }), "event.x: missing (expected a number)");
});

Deno.test("describeIssues: an externally tagged form missed by its key is drawn as that key", () => {
  assertEquals(
    words({ answer: { reject: {} } }),
    'answer: expected "not_now" or {"approve": …} or {"feedback": …}, got an object',
  );
  assertEquals(words({ answer: "done" }), 'answer: expected "not_now" or an object, got a string');
  assertEquals(
    words({ answer: { approve: {} } }),
    "answer.approve.note: missing (expected a string)",
  );
});
