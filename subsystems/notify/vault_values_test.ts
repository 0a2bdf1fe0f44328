// docs/notify.md "What a push says": a value the vault handed an agent (or the agent set in it)
// is known to the scrub before the agent can type it into a later ask.
import type { SessionUpdate, Wire } from "../../protocol/mod.ts";
import { assertEquals } from "../../tests/assert.ts";
import { VaultValues } from "./vault_values.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const chat = (type: string, content: Wire[]): SessionUpdate => ({
  name: "chat_appended",
  fields: { key, msg: { type, message: { role: type, content } } },
});
const call = (id: string, name: string, input: Wire) =>
  chat("assistant", [{ type: "tool_use", id, name, input }]);
const result = (id: string, content: Wire, is_error = false) =>
  chat("user", [{ type: "tool_result", tool_use_id: id, content, is_error }]);

Deno.test("a vault read's answer, an attachment's lines and the values an agent set are kept", () => {
  const v = new VaultValues();
  v.read(call("t1", "mcp__forge__vault__read", { item: "prod db", field: "password" }));
  v.read(call("t2", "Bash", { command: "ls" }));
  v.read(result("t2", "README.md")); // not the vault's: nobody's secret
  v.read(result("t1", [{ type: "text", text: "hunter2-prod" }]));
  v.read(call("t3", "mcp__forge__vault__attachment", { item: "deploy", attachment: "id" }));
  v.read(result("t3", "-----BEGIN KEY-----\nMIIEow-secret-body\nend"));
  v.read(call("t4", "mcp__forge__vault__update", { item: "prod db", set: { password: "n3w-pw" } }));
  v.read(call("t5", "mcp__forge__vault__create", { name: "x", fields: { token: "tok-9z" } }));
  v.read(call("t6", "mcp__forge__vault__read", { item: "x", field: "password" }));
  v.read(result("t6", "vault__read: the person declined", true)); // a refusal holds no value
  assertEquals(v.values(), [
    "hunter2-prod",
    "-----BEGIN KEY-----\nMIIEow-secret-body\nend",
    "-----BEGIN KEY-----",
    "MIIEow-secret-body",
    "n3w-pw",
    "tok-9z",
  ]);
});

Deno.test("only the newest 500 values are kept", () => {
  const v = new VaultValues();
  for (let i = 0; i < 510; i++) {
    v.read(call(`t${i}`, "mcp__forge__vault__read", { item: "x", field: "f" }));
    v.read(result(`t${i}`, `value-${i}`));
  }
  assertEquals([v.values().length, v.values()[0], v.values().at(-1)], [
    500,
    "value-10",
    "value-509",
  ]);
});
