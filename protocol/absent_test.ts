import { assert } from "../tests/assert.ts";
import { ABSENT_COMMANDS, ABSENT_UPDATES } from "./absent.ts";
import { COMMANDS } from "./command.ts";

// An absence is argued, and an argued command is one this server decodes.
Deno.test("every absent update names its reason; an absent command is a decoded one", () => {
  for (const [name, why] of Object.entries(ABSENT_UPDATES)) {
    assert(why.length > 40, `${name} gives a reason`);
  }
  for (const name of Object.keys(ABSENT_COMMANDS)) assert(name in COMMANDS, name);
});

// Nothing argued absent may be produced: the source that emits an update must not list it.
Deno.test("no update argued absent is emitted by the server", async () => {
  const root = new URL("../", import.meta.url).pathname;
  const found: string[] = [];
  for (const dir of ["server", "subsystems"]) {
    for await (const file of walk(`${root}${dir}`)) {
      const text = await Deno.readTextFile(file);
      for (const name of Object.keys(ABSENT_UPDATES)) {
        if (text.includes(`name: "${name}"`) || text.includes(`emit("${name}"`)) {
          found.push(`${name} in ${file.slice(root.length)}`);
        }
      }
    }
  }
  assert(found.length === 0, `argued absent but emitted: ${found.join(", ")}`);
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) yield path;
  }
}
