import { assert, assertEquals } from "../../../../tests/assert.ts";
import { highlightLines } from "./highlight.ts";

Deno.test("highlight: a file's lines are highlighted once while their text stays the same", () => {
  const first = highlightLines(["const a = 1;", "let b = 2;"], "typescript");
  assert(first[0]!.includes("hljs-keyword"));
  assertEquals(highlightLines(["const a = 1;", "let b = 2;"], "typescript"), first);
  assert(highlightLines(["const a = 1;", "let b = 2;"], "typescript") === first);
});

Deno.test("highlight: a file whose text moved is highlighted again as it now reads", () => {
  const before = highlightLines(["let x = 1;"], "typescript");
  const after = highlightLines(["let x = 'moved';"], "typescript");
  assert(after !== before);
  assert(after[0]!.includes("hljs-string"), after[0]!);
  assertEquals(highlightLines(["plain"], null), [null]);
});
