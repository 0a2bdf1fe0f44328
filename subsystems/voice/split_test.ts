import { assertEquals } from "../../tests/assert.ts";
import { MAX_CLIP_CHARS, sentences } from "./split.ts";

// Long text is split at sentence boundaries into clips rendered in order.
Deno.test("sentences: cut at . ! ? in order, whitespace folded, empty pieces dropped", () => {
  assertEquals(
    sentences("The build passed.  Two tests\nfailed! Shall I fix them? ... "),
    ["The build passed.", "Two tests failed!", "Shall I fix them?"],
  );
  assertEquals(sentences("   "), []);
  assertEquals(sentences("no stop at the end"), ["no stop at the end"]);
});

Deno.test("sentences: a sentence past the clip bound is cut at a comma or space", () => {
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(", ") + ".";
  const clips = sentences(long);
  assertEquals(clips.length > 1, true);
  for (const c of clips) assertEquals(c.length <= MAX_CLIP_CHARS, true, c);
  assertEquals(clips.join(" ").replace(/,/g, ""), long.replace(/,/g, ""));
});
