import { assertEquals } from "../../../../tests/assert.ts";
import { markWords } from "./mark_words.ts";

const agent = {
  pending: null,
  pending_depth: 0,
  reason: null,
  has_background_work: false,
} as unknown as Parameters<typeof markWords>[0];

Deno.test("mark words: a seat waiting says on what and how many more", () => {
  const marks = markWords({ ...agent, pending: "permission", pending_depth: 2 }, false);
  assertEquals(marks, [{
    mark: "needs-you",
    glyph: "◆",
    words: "waiting on you: permission (+2)",
  }]);
  assertEquals(
    markWords({ ...agent, pending: "document_hand_off" }, false)[0].words,
    "waiting on you: document hand off",
  );
});

Deno.test("mark words: failure, background work and unseen, in order", () => {
  const marks = markWords({ ...agent, reason: "it broke", has_background_work: true }, true);
  assertEquals(marks.map((m) => [m.glyph, m.words]), [
    ["✕", "it broke"],
    ["⟳", "background work"],
    ["●", "finished while away"],
  ]);
  assertEquals(markWords(agent, false), []);
});
