// What forge adds beyond v29 is listed once (protocol/beyond.ts BEYOND_V29) and docs/protocol.md
// marks each: every listed command is one the decoder knows, nothing is listed twice, and each
// added field names its update and the field.
import { assert, assertEquals } from "../tests/assert.ts";
import { COMMANDS } from "./command.ts";
import { BEYOND_V29 } from "./beyond.ts";

Deno.test("BEYOND_V29: commands are real, names unique, fields are update.field", () => {
  for (const name of BEYOND_V29.commands) assert(name in COMMANDS, `${name} is no command`);
  const all = Object.values(BEYOND_V29).flat();
  assertEquals(new Set(all).size, all.length, "a name listed twice");
  for (const field of BEYOND_V29.fields) assert(/^[a-z_]+\.[a-z_]+$/.test(field), field);
  assert(BEYOND_V29.updates.includes("review_threads_changed"));
  assert(BEYOND_V29.fields.includes("settings_write_resolved.failure"));
});
