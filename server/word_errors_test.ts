import { assertEquals } from "../tests/assert.ts";
import { scoringWords, wordErrors } from "./word_errors.ts";

Deno.test("scoring words drop case and punctuation, keep apostrophes", () => {
  assertEquals(scoringWords("Don't STOP, now!  Go."), ["don't", "stop", "now", "go"]);
  assertEquals(scoringWords(" ... "), []);
});

Deno.test("word errors count substitutions, deletions and insertions", () => {
  const w = (s: string) => s.split(" ");
  assertEquals(wordErrors(w("the cat sat"), w("the cat sat")), 0);
  assertEquals(wordErrors(w("the cat sat"), w("the bat sat")), 1);
  assertEquals(wordErrors(w("the cat sat"), w("the sat")), 1);
  assertEquals(wordErrors(w("the cat sat"), w("oh the cat sat down")), 2);
  assertEquals(wordErrors([], w("a b")), 2);
  assertEquals(wordErrors(w("a b c"), []), 3);
});
