import { assertEquals, assertMatch } from "../../../../tests/assert.ts";
import { skewSentence } from "./skew.ts";

// spec: The greeting - a mismatch raises the notice; the sentence names this client's build, the
// command that updates the stale half, and the server's build where the greeting carried it.
Deno.test("skew: one protocol draws no notice", () => {
  assertEquals(
    skewSentence(
      { version: 29, forge_version_short: "0.1.0+a" },
      "0.1.0+b",
      29,
    ),
    null,
  );
});

Deno.test("skew: an older server is named with its build and told to update", () => {
  const s = skewSentence(
    { version: 28, forge_version_short: "0.0.9+abc" },
    "0.1.0+def",
    29,
  )!;
  assertMatch(s, /build 0\.1\.0\+def/);
  assertMatch(s, /build 0\.0\.9\+abc\) speaks socket 28/);
  assertMatch(s, /Update the server: git pull/);
});

Deno.test("skew: a server that sent no build is still a sentence", () => {
  const s = skewSentence({ version: 30 }, "0.1.0+def", 29)!;
  assertMatch(s, /the server speaks socket 30/);
  assertMatch(s, /Update the client/);
});
