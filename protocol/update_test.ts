import { assertEquals } from "../tests/assert.ts";
import { ABSENT_UPDATES } from "./absent.ts";
import { BOARD_NEWS, FLEET_NEWS, UNIT_UPDATES } from "./update.ts";

// The names update.ts routes (fleet news, board news, the unit variants) are names something
// emits, or argued absent (absent.ts): a misspelt or dead name routes nothing and fails no other
// test. An update is emitted as `emit("name", ...)` or `{ name: "name", fields }`, or as a held
// kind's `pending` / `resolved` name (server/workspace/seats/held.ts), or chosen inside an emit
// (`emit(replacing ? "session_replaced" : "connected", {`).
Deno.test("every update name update.ts routes is emitted somewhere, or argued absent", async () => {
  const root = new URL("../", import.meta.url).pathname;
  const sources: string[] = [];
  for (const dir of ["server", "subsystems"]) {
    for await (const file of walk(`${root}${dir}`)) sources.push(await Deno.readTextFile(file));
  }
  const text = sources.join("\n");
  const emitted = (n: string) =>
    [
      `emit("${n}"`,
      `name: "${n}"`,
      `pending: "${n}"`,
      `resolved: "${n}"`,
      `"${n}", {`,
      `? "${n}" :`,
    ]
      .some((form) => text.includes(form));
  const names = new Set([...FLEET_NEWS, ...BOARD_NEWS, ...UNIT_UPDATES]);
  const silent = [...names].filter((n) => !emitted(n) && !(n in ABSENT_UPDATES)).sort();
  assertEquals(silent, []);
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) yield path;
  }
}
