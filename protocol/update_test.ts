import { assert, assertEquals } from "../tests/assert.ts";
import { emitSites } from "../tests/emit_sites.ts";
import { ABSENT_UPDATES } from "./absent.ts";
import {
  BOARD_NEWS,
  decodeUpdate,
  DICTATE_MODELS_NEWS,
  encodeUpdate,
  EXTENSIONS_NEWS,
  FLEET_NEWS,
  OWN_NEWS,
  readUpdate,
  UNIT_UPDATES,
  update,
  UPDATE_NAMES,
} from "./update.ts";

// The routing sets derive from the update table, so a routed name is a table row. Every row
// must be a name product code really emits (tests/emit_sites.ts reads the syntax trees of the
// modules main.ts loads, so a comment or a test helper that spells a name does not count), and
// nothing argued absent is emitted.
Deno.test("every update in the table is emitted by product code; nothing argued absent is", async () => {
  const sites = await emitSites();
  const silent = UPDATE_NAMES.filter((n) => !sites.has(n)).sort();
  assertEquals(silent, [], "rows no product code emits");
  const stray = [...sites.keys()].filter((n) => !(UPDATE_NAMES as string[]).includes(n)).sort();
  assertEquals(stray, [], "names emitted outside the table");
  const absentEmitted = Object.keys(ABSENT_UPDATES).filter((n) => sites.has(n));
  assertEquals(absentEmitted, [], "argued absent, yet emitted");
});

Deno.test("the routing sets are the table's rows that say so", () => {
  const all = new Set<string>(UPDATE_NAMES);
  for (const set of [FLEET_NEWS, BOARD_NEWS, DICTATE_MODELS_NEWS, EXTENSIONS_NEWS, OWN_NEWS]) {
    for (const name of set) assert(all.has(name), name);
  }
  assert(FLEET_NEWS.has("permission_request") && !FLEET_NEWS.has("chat_appended"));
  assertEquals([...DICTATE_MODELS_NEWS].sort(), ["dictate_availability", "dictate_models_changed"]);
  assert([...EXTENSIONS_NEWS].every((n) => n.startsWith("plugins_")));
  assertEquals(UNIT_UPDATES, ["cli_version_changed", "dictate_availability"]);
});

const key = { org: "Acme", project: "proj", label: "lead" };

Deno.test("readUpdate: the wire form round-trips; drift is refused in words", () => {
  const queued = update("prompt_queued", { key, uuid: "u1", source: "you", text: "hi" });
  assertEquals(decodeUpdate(encodeUpdate(queued)), queued);
  assertEquals(decodeUpdate("dictate_availability"), {
    name: "dictate_availability",
    fields: null,
  });
  const why = (raw: unknown) => {
    const read = readUpdate(raw);
    return read.ok ? "read" : read.why;
  };
  assertEquals(why("nope"), "unknown update `nope`");
  assertEquals(
    why({ a: {}, b: {} }),
    'an update is one variant: its name, or {"<name>": {fields}}',
  );
  assertEquals(
    why({ dictate_availability: {} }),
    "`dictate_availability` is a unit variant: it crosses as its name alone",
  );
  const missing = why({ prompt_queued: { key, uuid: "u1", source: "you" } });
  assert(missing.startsWith("prompt_queued: ") && missing.includes("text"), missing);
  const extra = why({ releasing: { key, why: "x" } });
  assert(extra.startsWith("releasing: ") && extra.includes("why"), extra);
});
