// A state file broken on disk while forge runs (docs/state.md, "A file is written only over what
// the store last read or wrote"), over the socket of a spawned forge: a person hand-edits a file
// badly after forge read it, or one forge never read since its boot, and the next change is
// refused naming the file; the broken bytes stand and a copy is kept aside, told once in the log.
import { decodeUpdate, fieldsOf } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG } from "./harness.ts";
import { type SpawnedForge, spawnForge } from "./spawned.ts";

async function ready(forge: SpawnedForge): Promise<ForgeClient> {
  const c = await forge.connect();
  await c.next((m) => m.kind === "greeting");
  await c.next((m) => m.kind === "settings");
  return c;
}

/** The copies kept aside beside `path`, each with its bytes. */
async function asides(path: string): Promise<string[]> {
  const dir = path.replace(/\/[^/]*$/, "");
  const name = path.slice(dir.length + 1);
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith(`${name}.corrupt-`)) {
      out.push(await Deno.readTextFile(`${dir}/${e.name}`));
    }
  }
  return out;
}

/** The `state_file_damaged` records the stopped forge's log holds for `path`. */
async function damagedRecords(forge: SpawnedForge, path: string): Promise<number> {
  await forge.stop();
  const lines = (await Deno.readTextFile(`${forge.dir}/forge.log`)).split("\n");
  return lines.filter((l) => l.includes('"event":"state_file_damaged"'))
    .filter((l) => JSON.parse(l).path === path).length;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test("spawned: a board file broken by hand after forge read it is refused, not rewritten", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const c = await ready(forge);
  c.send({ kind: "subscribe", what: "board" });
  await c.next((m) => m.kind === "snapshot" && m.subject === "board");
  const create = (subject: string) =>
    c.send({
      kind: "command",
      command: { task_create: { project: "proj", subject, parent: null } },
    });
  create("first");
  const landed = await c.next((m) =>
    m.kind === "update" && decodeUpdate(m.update).name === "tasks_changed"
  );
  assertEquals(
    fieldsOf(decodeUpdate(landed.update), "tasks_changed")!.tasks.map((t) => t.subject),
    ["first"],
  );
  const path = `${forge.dir}/state/board/Acme/proj/tasks.json`;
  assertMatch(await Deno.readTextFile(path), /"subject":"first"/);
  const broken = '{"version":1,"tasks":[{"id":"1","subject":"hand-edited and broken';
  await Deno.writeTextFile(path, broken);
  // Twice: each change is refused naming the file, and the damage is told once.
  for (const subject of ["second", "third"]) {
    create(subject);
    const refused = await c.next((m) => m.kind === "error" && m.what === "task_create");
    assertMatch(
      String(refused.why),
      new RegExp(
        `^task_create: proj's board cannot be changed: ${escaped(path)} did not parse ` +
          `\\(it is not whole JSON\\); forge kept a copy at ${escaped(path)}\\.corrupt-`,
      ),
    );
  }
  assertEquals(await Deno.readTextFile(path), broken);
  assertEquals(await asides(path), [broken]);
  // The board's own error field says it too.
  c.send({ kind: "subscribe", what: "board" });
  const board = await c.next((m) => m.kind === "snapshot" && m.subject === "board");
  const project = (board.data as { projects: { error: string | null }[] }).projects[0];
  assertMatch(String(project.error), /tasks\.json did not parse/);
  assertEquals(await damagedRecords(forge, path), 1);
});

Deno.test("spawned: saving a branch's review threads never read since boot refuses a broken file", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const c = await ready(forge);
  const dir = `${forge.dir}/state/reviews/proj/feat`;
  const path = `${dir}/threads.json`;
  const broken = '{"threads": [ {"id": "t1", "BROKEN';
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(path, broken);
  c.send({
    kind: "command",
    command: { save_review_threads: { project: "proj", branch: "feat", threads: [] } },
  });
  const refused = await c.next((m) => m.kind === "error");
  assertMatch(
    String(refused.why),
    new RegExp(
      `^save_review_threads: the threads of proj@feat were not written: ${escaped(path)} did ` +
        `not parse \\(it is not whole JSON\\); forge kept a copy at ${escaped(path)}\\.corrupt-`,
    ),
  );
  assertEquals(await Deno.readTextFile(path), broken);
  assertEquals(await asides(path), [broken]);
  assertEquals(await damagedRecords(forge, path), 1);
});
