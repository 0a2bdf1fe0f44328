import { assertEquals } from "../../tests/assert.ts";
import type { DictateAxes } from "../../protocol/mod.ts";
import { normalize } from "./normalize.ts";

const axes = (
  styling: DictateAxes["styling"],
  structure: DictateAxes["structure"],
  context: DictateAxes["context"],
): DictateAxes => ({ styling, structure, context });

Deno.test("normalize: verbatim, as spoken, general leaves the decoder's words alone (spec: each take carries the values it normalized by)", () => {
  assertEquals(
    normalize("run the tests period", axes("verbatim", "as_spoken", "general")),
    "run the tests period",
  );
});

Deno.test("normalize: semi_formal prose capitalises each sentence and ends it with a period", () => {
  assertEquals(
    normalize("run the tests period i think it is done", axes("semi_formal", "prose", "general")),
    "Run the tests. I think it is done.",
  );
});

Deno.test("normalize: casual contracts and adds no mark; formal expands", () => {
  assertEquals(normalize("i do not know", axes("casual", "prose", "general")), "I don't know");
  assertEquals(normalize("it's done", axes("formal", "prose", "general")), "It is done.");
});

Deno.test("normalize: bullets put each sentence on its own line", () => {
  assertEquals(
    normalize("run the tests period push the branch", axes("semi_formal", "bullets", "general")),
    "- Run the tests.\n- Push the branch.",
  );
});

Deno.test("normalize: code context glues spoken symbols and drops the final period", () => {
  assertEquals(
    normalize("open main dot ts", axes("semi_formal", "prose", "code")),
    "Open main.ts",
  );
  assertEquals(
    normalize("create feature slash search", axes("verbatim", "prose", "code")),
    "create feature/search",
  );
});

Deno.test("normalize: email sets a greeting on its own line; chat drops the final period", () => {
  assertEquals(
    normalize("hi sam period the build passed", axes("semi_formal", "prose", "email")),
    "Hi sam,\nThe build passed.",
  );
  assertEquals(normalize("run the tests", axes("semi_formal", "prose", "chat")), "Run the tests");
});

Deno.test("normalize: nothing decoded is the empty string; filler tokens never land", () => {
  assertEquals(normalize("  ", axes("formal", "prose", "general")), "");
  assertEquals(normalize("<sil> [noise]", axes("formal", "prose", "general")), "");
});
