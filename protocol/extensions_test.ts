// What forge adds beyond v29 is listed once (protocol/beyond.ts BEYOND_V29) and docs/protocol.md
// marks each: every listed command is one the decoder knows, nothing is listed twice, and each
// added field names its update and the field.
import type { z } from "zod";
import { assert, assertEquals } from "../tests/assert.ts";
import { COMMANDS } from "./command.ts";
import { BEYOND_V29 } from "./beyond.ts";
import { UPDATE_NAMES, type UpdateName, updateSpec } from "./update.ts";

Deno.test("BEYOND_V29: commands are real, names unique, fields name a field of a real update", () => {
  for (const name of BEYOND_V29.commands) assert(name in COMMANDS, `${name} is no command`);
  const fields = Object.keys(BEYOND_V29.fields);
  const all = [...BEYOND_V29.commands, ...BEYOND_V29.updates, ...BEYOND_V29.home, ...fields];
  assertEquals(new Set(all).size, all.length, "a name listed twice");
  for (const field of fields) {
    const [name, key] = field.split(".");
    assert(UPDATE_NAMES.includes(name as UpdateName), `${field}: no update ${name}`);
    const shape = (updateSpec(name as UpdateName).fields as z.ZodObject | null)?.shape ?? {};
    assert(key in shape, `${field}: ${name} has no field ${key}`);
  }
  assert(BEYOND_V29.updates.includes("review_threads_changed"));
  assert(fields.includes("settings_write_resolved.failure"));
  assert(fields.includes("plugins_inventory_updated.lsp"));
  // spec: How a message is tagged; What is not here: v29's own plugin actions and held kinds.
  for (const name of ["plugin_install", "plugin_update", "document_hand_off_pending"]) {
    assert(!(all as string[]).includes(name), `${name} is v29's own`);
  }
});
