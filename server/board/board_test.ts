// The store, the people's commands and the agents' tools over one board: spec board > projects
// (a restart keeps the board; a torn file is never read as an empty board); the original's task
// commands (refused by name, the store unchanged) and its tasks_changed; the original forge's
// `cron` and `tasks` tool families.
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import type { Command, Task } from "../../protocol/mod.ts";
import type { memoryLogger } from "../log.ts";
import { Refusal } from "../subsystem.ts";
import { taskFilePath } from "./book.ts";
import { taskCommands } from "./commands.ts";
import { boardWorld, project } from "../../tests/board_support.ts";
import { parseInput } from "../workspace/mcp/catalog.ts";
import { BOARD_TOOLS, boardTools } from "./tools.ts";

type Fields<N extends Command["name"]> = NonNullable<Extract<Command, { name: N }>["fields"]>;
const cmd = <N extends Command["name"]>(name: N, fields: Fields<N>) => ({ name, fields });

async function toolJson(result: Promise<{ text: string; isError?: boolean }>) {
  const r = await result;
  assert(!r.isError, `tool error: ${r.text}`);
  return JSON.parse(r.text);
}

Deno.test("tools: create, update, list and delete a project's tasks; each change is announced", async () => {
  await using w = await boardWorld([project("alpha"), project("beta")]);
  const tools = boardTools(w.board);
  const call = w.call("alpha", "w1");
  const epic: Task = await toolJson(tools.tasks__create({ subject: "epic" }, call));
  const kid: Task = await toolJson(
    tools.tasks__create({ subject: "kid", parent: epic.id, estimate: { secs: 60 } }, call),
  );
  const moved: Task = await toolJson(
    tools.tasks__update({ id: kid.id, status: "in_progress", owner: "w1" }, call),
  );
  assertEquals([moved.status, moved.owner, moved.estimate], ["in_progress", "w1", {
    secs: 60,
    words: null,
  }]);
  assertEquals((await toolJson(tools.tasks__list({ parent: epic.id }, call))).length, 1);
  assertEquals(await toolJson(tools.tasks__list({}, w.call("beta"))), []);
  const changes = w.emitted.filter((u) => u.name === "tasks_changed");
  assertEquals(changes.length, 3);
  assertEquals(changes[2].fields?.key, { org: "Acme", project: "alpha", label: "lead" });
  assertEquals((changes[2].fields?.tasks as Task[]).map((t) => t.status), [
    "pending",
    "in_progress",
  ]);
  const gone = await toolJson(tools.tasks__delete({ id: epic.id }, call));
  assertEquals([gone.status, gone.removed.id, gone.children_removed], ["deleted", epic.id, 1]);
  assertEquals(await toolJson(tools.tasks__list({}, call)), []);
});

Deno.test("tools: bad task and cron input is answered in words naming the field", async () => {
  await using w = await boardWorld();
  const tools = boardTools(w.board);
  const call = w.call("alpha");
  // As the bridge runs a call: the arguments parsed with the tool's schema first (a field off it
  // is refused there, naming it), then the handler, whose refusals name the field too.
  const run = (name: string, input: unknown) => {
    const parsed = parseInput(BOARD_TOOLS.find((t) => t.name === name)!, input);
    return parsed.ok ? tools[name](parsed.input, call) : { text: parsed.why, isError: true };
  };
  const cases: [string, unknown, RegExp][] = [
    ["tasks__create", { subject: "" }, /^subject: must not be empty/],
    ["tasks__create", { subject: "x", status: "done" }, /bad input: status: /],
    ["tasks__create", { subject: "x", colour: "red" }, /bad input: .*unknown field colour/],
    ["tasks__update", { id: "t-missing", status: "completed" }, /no task `t-missing`/],
    ["tasks__delete", {}, /bad input: id: expected string/],
    ["cron__create", { prompt: "p", schedule: "every day" }, /^schedule: `every day`/],
    ["cron__create", { prompt: "p" }, /^schedule, run_once_at:/],
    ["cron__delete", { id: "c-x" }, /^id: no schedule `c-x`/],
  ];
  for (const [name, input, re] of cases) {
    const r = await run(name, input);
    assert(r.isError, `${name} ${JSON.stringify(input)} was not refused`);
    assertMatch(r.text, re);
  }
  assertEquals(w.emitted, []);
});

Deno.test("commands: create, move, rank and assign; unknown project, id or move refused by name", async () => {
  await using w = await boardWorld();
  const c = taskCommands(w.host, w.board);
  await c.task_create(cmd("task_create", { project: "alpha", subject: "a", parent: null }));
  await c.task_create(cmd("task_create", { project: "alpha", subject: "b", parent: null }));
  const [a, b] = await w.board.tasks({ org: "Acme", name: "alpha" });
  await c.task_rank(cmd("task_rank", { project: "alpha", id: b.id, to: "top" }));
  await c.task_assign(cmd("task_assign", { project: "alpha", id: a.id, owner: "w1" }));
  await c.task_move(cmd("task_move", { project: "alpha", id: a.id, to: "completed" }));
  const after = await w.board.tasks({ org: "Acme", name: "alpha" });
  assertEquals(after.map((t) => [t.subject, t.status, t.owner]), [["b", "pending", null], [
    "a",
    "completed",
    "w1",
  ]]);
  const file = await Deno.readTextFile(taskFilePath(w.stateDir, "Acme", "alpha"));
  const refusals: [Promise<unknown>, RegExp][] = [
    [
      c.task_move(cmd("task_move", { project: "nope", id: a.id, to: "pending" })),
      /^task_move: no project `nope`/,
    ],
    [
      c.task_move(cmd("task_move", { project: "alpha", id: "t-0", to: "pending" })),
      /^task_move: no task `t-0`/,
    ],
    [
      c.task_move(cmd("task_move", { project: "alpha", id: a.id, to: "waiting" })),
      /^task_move: status: .* cannot move from completed to waiting/,
    ],
    [
      c.task_rank(cmd("task_rank", { project: "alpha", id: b.id, to: "up" })),
      /^task_rank: .*already at the top/,
    ],
    [
      c.task_verdict(
        cmd("task_verdict", { project: "alpha", id: b.id, approve: true, words: null }),
      ),
      /^task_verdict: .*not awaiting verification/,
    ],
  ];
  for (const [p, re] of refusals) {
    await assertRejects(async () => {
      try {
        await p;
      } catch (err) {
        assert(err instanceof Refusal);
        throw err;
      }
    }, re);
  }
  assertEquals(await Deno.readTextFile(taskFilePath(w.stateDir, "Acme", "alpha")), file);
});

Deno.test("a send-back's words reach the owner as a forge prompt; an answer reaches the asker", async () => {
  await using w = await boardWorld();
  const tools = boardTools(w.board);
  const c = taskCommands(w.host, w.board);
  const t: Task = await toolJson(
    tools.tasks__create({ subject: "ship it", verify: "user", owner: "w1" }, w.call("alpha")),
  );
  await tools.tasks__update({ id: t.id, status: "completed" }, w.call("alpha", "w1"));
  await c.task_verdict(
    cmd("task_verdict", { project: "alpha", id: t.id, approve: false, words: "tests are red" }),
  );
  assertEquals(w.delivered.length, 1);
  const d = w.delivered[0];
  assertEquals([d.slot.label, d.delivery.source], ["w1", "forge"]);
  assertMatch(d.delivery.text, /sent back \(attempt 2\).*\n\ntests are red$/s);
  await tools.tasks__update({ id: t.id, status: "waiting", question: "Which branch?" }, {
    ...w.call("alpha", "w2"),
  });
  await c.task_answer(cmd("task_answer", { project: "alpha", id: t.id, words: "main" }));
  assertEquals(w.delivered[1].slot.label, "w2");
  assertMatch(w.delivered[1].delivery.text, /"Which branch\?" is:\n\nmain$/);
  const [row] = await w.board.tasks({ org: "Acme", name: "alpha" });
  assertEquals(row.status, "in_progress");
});

Deno.test("a send-back for a worker that is gone reaches the lead, saying whose words they were", async () => {
  await using w = await boardWorld();
  const tools = boardTools(w.board);
  const t: Task = await toolJson(
    tools.tasks__create({ subject: "x", verify: "user", owner: "w7" }, w.call("alpha", "w7")),
  );
  await tools.tasks__update({ id: t.id, status: "completed" }, w.call("alpha", "w7"));
  const deliver = w.host.deliver;
  w.host.deliver = (slot, d) =>
    slot.label === "w7" ? Promise.reject(new Error("w7 has no session")) : deliver(slot, d);
  await taskCommands(w.host, w.board).task_verdict(
    cmd("task_verdict", { project: "alpha", id: t.id, approve: false, words: "redo it" }),
  );
  assertEquals(w.delivered.map((d) => d.slot.label), ["lead"]);
  assertMatch(
    w.delivered[0].delivery.text,
    /^\[Board\] These words were for w7, who could not take them \(w7 has no session\)/,
  );
  assertMatch(w.delivered[0].delivery.text, /redo it$/);
});

Deno.test("a restart keeps the board exactly; a damaged file is never read as an empty board", async () => {
  await using w = await boardWorld();
  const tools = boardTools(w.board);
  for (const s of ["one", "two", "three"]) {
    await tools.tasks__create({ subject: s }, w.call("alpha"));
  }
  const before = await w.board.tasks({ org: "Acme", name: "alpha" });
  assertEquals(await (await w.reopen()).tasks({ org: "Acme", name: "alpha" }), before);
  // A torn write (what a crash mid-write without temp+rename would leave).
  const path = taskFilePath(w.stateDir, "Acme", "alpha");
  const whole = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, whole.slice(0, whole.length / 2));
  const damaged = await w.reopen();
  const snap = await damaged.snapshot();
  assertMatch(snap.projects[0].error!, /tasks\.json did not parse \(it is not whole JSON\)/);
  assertMatch(snap.projects[0].error!, /changes nothing in the board of alpha until the file/);
  const r = await boardTools(damaged).tasks__create({ subject: "four" }, w.call("alpha"));
  assert(r.isError);
  assertMatch(r.text, /alpha's board cannot be changed: .*tasks\.json did not parse/);
  assertEquals(await Deno.readTextFile(path), whole.slice(0, whole.length / 2));
  // Kept aside, byte for byte, and named in a log record; home's fatal_error lists it.
  const aside = [...Deno.readDirSync(path.replace(/\/[^/]*$/, ""))]
    .find((e) => e.name.startsWith("tasks.json.corrupt-"))!;
  assertEquals(
    await Deno.readTextFile(`${path}.${aside.name.slice("tasks.json.".length)}`),
    whole.slice(0, whole.length / 2),
  );
  const log = w.host.log as ReturnType<typeof memoryLogger>;
  assert(
    log.records.some((x) => x.event === "state_file_damaged" && "path" in x && x.path === path),
  );
  // Mended by hand: the next change reads it back and goes through.
  await Deno.writeTextFile(path, whole);
  const mended = await boardTools(damaged).tasks__create({ subject: "four" }, w.call("alpha"));
  assert(!mended.isError, mended.text);
  const after = await damaged.tasks({ org: "Acme", name: "alpha" });
  assertEquals(after.map((t) => t.subject), ["one", "two", "three", "four"]);
  assertEquals((await damaged.snapshot()).projects[0].error, null);
});

Deno.test("the board snapshot: one entry per project with rows, crons and empty connector sets", async () => {
  await using w = await boardWorld([project("alpha"), project("beta")]);
  await boardTools(w.board).tasks__create({ subject: "x", owner: "w9" }, w.call("alpha"));
  await w.board.crons.create("Acme", "beta", "lead", { prompt: "p", schedule: "0 9 * * 1-5" });
  const snap = await w.board.snapshot();
  assertEquals(snap.projects.map((p) => p.project), [{ org: "Acme", name: "alpha" }, {
    org: "Acme",
    name: "beta",
  }]);
  assertEquals(snap.projects[0].rows[0].marks.stale, true);
  assertEquals(snap.projects[1].crons[0].schedule, { recurring: "0 9 * * 1-5" });
  assertEquals(snap.projects[1].connectors, { gotify: [], slack: [] });
  const fleet = await w.board.fleet(project("alpha"));
  assertEquals([fleet.rows, fleet.queue], [1, { ready: 1, unowned: 0 }]);
});
