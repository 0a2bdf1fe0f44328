import { assertEquals } from "../../../../tests/assert.ts";
import { codeSpans } from "./code_spans.ts";

Deno.test("code spans: a sentence's backticked names are code, the rest plain", () => {
  assertEquals(codeSpans("unknown key `orgs[0].bogus` in `forge.toml`."), [
    { code: false, text: "unknown key " },
    { code: true, text: "orgs[0].bogus" },
    { code: false, text: " in " },
    { code: true, text: "forge.toml" },
    { code: false, text: "." },
  ]);
});

Deno.test("code spans: plain words, an unpaired backtick and markup stay text", () => {
  assertEquals(codeSpans("no names here"), [{ code: false, text: "no names here" }]);
  assertEquals(codeSpans("a ` alone"), [{ code: false, text: "a ` alone" }]);
  assertEquals(codeSpans("`<b>x</b>`"), [{ code: true, text: "<b>x</b>" }]);
  assertEquals(codeSpans(""), []);
});
