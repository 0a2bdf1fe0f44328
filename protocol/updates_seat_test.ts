// call_output's `output` is read through its schema, not as JSON: forge builds it
// (server/workspace/seats/call_output.ts), so a value off its shape is refused by the validating
// client in words. spec: What a client sends > read_call_output.
import { assertEquals } from "../tests/assert.ts";
import { WireChecker } from "./validate.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };

/** The checker's words for a call_output answer carrying `output`. */
function check(output: unknown): string[] {
  const update = { call_output: { key, call_id: "toolu_1", output } };
  return new WireChecker().check({ kind: "update", update, seq: null, span: 1 });
}

Deno.test("call_output: a read and a no-path answer read", () => {
  assertEquals(check({ state: "read", path: "/t/a.output", lines: ["a"], truncated: false }), []);
  assertEquals(check({ state: "none", reason: "no-path" }), []);
});

Deno.test("call_output: the output is tagged read or none, each with its own fields", () => {
  assertEquals(check({ state: "read", path: "/t/a.output", lines: "a", truncated: false }), [
    "update: call_output: output.lines: expected a list, got a string",
  ]);
  assertEquals(check({ state: "none", reason: "gone" }), [
    'update: call_output: output.reason: expected "no-path", got "gone"',
  ]);
  assertEquals(check({ state: "lost" }), [
    'update: call_output: output.state: expected one of "read", "none", got "lost"',
  ]);
});
