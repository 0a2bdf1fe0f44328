import { assertEquals } from "../../../../tests/assert.ts";
import { lifecycleWords } from "./lifecycle_words.ts";

Deno.test("a seat with no login or a refused one says what it needs, the rest their name", () => {
  assertEquals(lifecycleWords("LoggedOut"), "Needs a login");
  assertEquals(lifecycleWords("AuthRequired"), "Login refused");
  for (const l of ["Sleeping", "Spawning", "Idle", "Running", "Attention", "Failed"]) {
    assertEquals(lifecycleWords(l), l);
  }
});
