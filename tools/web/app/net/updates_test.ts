import { assert, assertEquals, assertMatch } from "../../../../tests/assert.ts";
import { isNamed, readUpdate } from "./updates.ts";

// The page reads every update with protocol/'s reader against its UPDATES table: a known update
// is typed, a name protocol/ lacks is kept as JSON, a field off its schema is refused in words.
// spec: How a message is tagged.
const key = { org: "o", project: "p", label: "lead" };

Deno.test("updates: a known update is typed by protocol/'s table", () => {
  const u = readUpdate({ prompt_queued: { key, uuid: "u1", source: "you", text: "hi" } });
  assert(isNamed(u, "prompt_queued"));
  assertEquals([u.fields.text, u.key], ["hi", key]);
  const unit = readUpdate("dictate_availability");
  assertEquals([unit.known, unit.key], [true, null]);
});

Deno.test("updates: a field off its schema is refused, naming the update", () => {
  const u = readUpdate({ prompt_cancel_resolved: { key, uuid: "u1", cancelled: "yes" } });
  assertEquals(u.known, "invalid");
  assertMatch(u.known === "invalid" ? u.why : "", /^prompt_cancel_resolved: /);
  assertEquals(readUpdate({ a: {}, b: {} }).known, "invalid");
});

Deno.test("updates: a newer forge's field is set aside, its new update kept as JSON", () => {
  const extra = readUpdate({ notice: { key, severity: "info", text: "t", colour: "blue" } });
  assert(isNamed(extra, "notice"));
  assertEquals(extra.fields, { key, severity: "info", text: "t" });
  const other = readUpdate({ telepathy_pending: { key, id: "x1", thought: "tea" } });
  assertEquals(other.known, false);
  assertEquals(other.key, key);
  assertEquals(other.known === false ? other.bag.thought : null, "tea");
});
