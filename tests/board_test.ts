// The board over the socket: spec What a subject carries > board (one entry per project; hears
// tasks_changed), home > fleet (counts derived from the tasks; home hears tasks_changed),
// the original's task commands (refused by name) and "a restart keeps the board exactly".
import { BoardSnapshot, decodeUpdate, fieldsOf, FleetRow } from "../protocol/mod.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";
import { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";

const isUpdate = (name: string) => (m: Record<string, unknown>) =>
  m.kind === "update" && decodeUpdate(m.update).name === name;

async function board(c: ForgeClient) {
  c.send({ kind: "subscribe", what: "board" });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === "board");
  return BoardSnapshot.parse(snap.data);
}

Deno.test("board: task commands move the board and home's fleet counts; refusals name the command", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const watcher = await t.ready();
  const first = await board(watcher);
  assertEquals(first.projects.map((p) => [p.project, p.rows, p.crons, p.connectors]), [[
    { org: "Acme", name: "proj" },
    [],
    [],
    { gotify: [], slack: [] },
  ]]);
  const home = await t.ready();
  home.send({ kind: "subscribe", what: "home" });
  await home.next((m) => m.kind === "snapshot");

  const person = await t.ready();
  const create = (subject: string) =>
    person.send({
      kind: "command",
      command: { task_create: { project: "proj", subject, parent: null } },
    });
  create("first");
  create("second");
  for (const subject of ["first", "second"]) {
    const u = decodeUpdate((await watcher.next(isUpdate("tasks_changed"))).update);
    assertEquals(fieldsOf(u, "tasks_changed")?.tasks.at(-1)?.subject, subject);
    await home.next(isUpdate("tasks_changed"));
  }
  const rows = (await board(watcher)).projects[0].rows;
  person.send({
    kind: "command",
    command: { task_rank: { project: "proj", id: rows[1].task.id, to: "top" } },
  });
  const ranked = decodeUpdate((await watcher.next(isUpdate("tasks_changed"))).update);
  assertEquals(fieldsOf(ranked, "tasks_changed")?.tasks.map((x) => x.subject), [
    "second",
    "first",
  ]);
  home.send({ kind: "subscribe", what: "home" });
  const snap = await home.next((m) => m.kind === "snapshot");
  const fleet = FleetRow.parse((snap.data as { fleet: unknown[] }).fleet[0]);
  assertEquals([fleet.rows, fleet.queue, fleet.unowned, fleet.waiting_on_user], [2, 2, 2, 0]);

  person.send({
    kind: "command",
    command: { task_move: { project: "proj", id: "t-nothere", to: "completed" } },
  });
  const err = await person.next((m) => m.kind === "error");
  assertEquals(err.what, "task_move");
  assertMatch(String(err.why), /no task `t-nothere` on proj's board/);
  person.sendUntyped({
    kind: "command",
    command: { task_move: { project: "proj", id: rows[0].task.id, to: "finished" } },
  });
  const bad = await person.next((m) => m.kind === "error");
  assertMatch(String(bad.why), /task_move: to: /);
  assertEquals((await board(watcher)).projects[0].rows.length, 2);
});

Deno.test("board: a restart keeps the board exactly", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  await board(c);
  for (const subject of ["a", "b", "c"]) {
    c.send({
      kind: "command",
      command: { task_create: { project: "proj", subject, parent: null } },
    });
    await c.next(isUpdate("tasks_changed"));
  }
  const before = await board(c);
  assertEquals(before.projects[0].rows.length, 3);
  await c.close();
  await t.server.stop();
  const again = await startServer({
    configPath: t.configPath,
    port: 0,
    gatewayPort: 0,
    log: memoryLogger(),
  });
  try {
    const d = await ForgeClient.connect(again.url, { validate: true });
    await d.next((m) => m.kind === "settings");
    const after = await board(d);
    assertEquals(
      after.projects[0].rows.map((r) => r.task),
      before.projects[0].rows.map((r) => r.task),
    );
    assert(after.projects[0].error === null);
    await d.close();
    assertEquals(d.schemaErrors, [], "every frame on protocol/'s schemas");
  } finally {
    await again.stop();
  }
});
