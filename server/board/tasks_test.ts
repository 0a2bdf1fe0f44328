// The task model: spec board > projects (rows with worked time and marks); the original forge's
// task commands (a move the status does not allow is refused, nothing changes) and its `tasks`
// tool family.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { boardRows, fleetCounts } from "./rows.ts";
import { BoardError, TaskList } from "./tasks.ts";

const T0 = Date.UTC(2026, 11, 2, 12);
const min = 60_000;

function refused(fn: () => unknown, re: RegExp): void {
  try {
    fn();
  } catch (err) {
    assert(err instanceof BoardError, `not a BoardError: ${err}`);
    assertMatch(err.message, re);
    return;
  }
  throw new Error(`not refused (expected ${re})`);
}

Deno.test("a row is created pending at the bottom; an empty subject or unknown parent is refused", () => {
  const l = new TaskList("alpha");
  const a = l.create({ subject: " write spec " }, T0, "lead");
  const b = l.create({ subject: "build" }, T0, "lead");
  assertEquals([a.subject, a.status, a.owner], ["write spec", "pending", null]);
  assert(b.rank > a.rank);
  refused(() => l.create({ subject: "  " }, T0, "lead"), /^subject: must not be empty/);
  refused(() => l.create({ subject: "x", parent: "t-nope" }, T0, "lead"), /no task `t-nope`/);
  assertEquals(l.tasks.length, 2);
});

Deno.test("status moves follow the table; a finished row only reopens; refusal changes nothing", () => {
  const l = new TaskList("alpha");
  const t = l.create({ subject: "x" }, T0, null);
  l.move(t.id, "completed", T0);
  const before = structuredClone(l.tasks);
  refused(() => l.move(t.id, "waiting", T0), /cannot move from completed to waiting/);
  refused(() => l.move(t.id, "completed", T0), /already completed/);
  assertEquals(l.tasks, before);
  assertEquals(l.move(t.id, "pending", T0).status, "pending");
});

Deno.test("worked time banks each in-progress run; the row's worked_secs includes the running one", () => {
  const l = new TaskList("alpha");
  const t = l.create({ subject: "x" }, T0, null);
  l.update(t.id, { status: "in_progress" }, T0, "w1");
  l.update(t.id, { status: "pending" }, T0 + 10 * min, "w1");
  l.update(t.id, { status: "in_progress" }, T0 + 20 * min, "w1");
  const row = boardRows(l.tasks, T0 + 25 * min, new Set())[0];
  assertEquals(row.worked_secs, 15 * 60);
  assertEquals(row.task.started_at, new Date(T0).toISOString());
});

Deno.test("an agent completing a verify:user row leaves it awaiting a verdict; send-back reopens it", () => {
  const l = new TaskList("alpha");
  const t = l.create({ subject: "x", verify: "user", owner: "w1" }, T0, "lead");
  const done = l.update(t.id, { status: "completed" }, T0, "w1");
  assertEquals([done.status, done.waiting_on?.verification], ["waiting", true]);
  assert(boardRows(l.tasks, T0, new Set(["w1"]))[0].marks.in_review);
  const back = l.verdict(t.id, false, T0);
  assertEquals([back.task.status, back.task.attempt, back.owner], ["in_progress", 1, "w1"]);
  refused(() => l.verdict(t.id, true, T0), /not awaiting verification/);
});

Deno.test("a question waits on the user, names who asked, and an answer resumes the row", () => {
  const l = new TaskList("alpha");
  const t = l.create({ subject: "x" }, T0, "lead");
  refused(() => l.update(t.id, { question: "which?" }, T0, "w2"), /^question:/);
  l.update(t.id, { status: "waiting", question: "Which database?" }, T0, "w2");
  assertEquals(fleetCounts(l.tasks, []).waiting_on_user, 1);
  const got = l.answer(t.id, T0 + min);
  assertEquals([got.asker, got.question, got.task.status], [
    "w2",
    "Which database?",
    "in_progress",
  ]);
  refused(() => l.answer(t.id, T0), /not waiting on a question/);
});

Deno.test("rank: top, up, down and before reorder within the queue; the ends are refused", () => {
  const l = new TaskList("alpha");
  const [a, b, c] = ["a", "b", "c"].map((s) => l.create({ subject: s }, T0, null));
  const order = () => l.ordered().map((t) => t.subject).join("");
  l.rank(c.id, "top");
  assertEquals(order(), "cab");
  l.rank(a.id, "up");
  assertEquals(order(), "acb");
  l.rank(a.id, "down");
  assertEquals(order(), "cab");
  l.rank(c.id, { before: b.id });
  assertEquals(order(), "acb");
  l.rank(a.id, { before: null });
  assertEquals(order(), "cba");
  refused(() => l.rank(c.id, "up"), /already at the top/);
  refused(() => l.rank(a.id, "down"), /already at the bottom/);
  refused(() => l.rank(a.id, { before: "t-zz" }), /no task `t-zz`/);
});

Deno.test("delete takes the row's children with it; a parent cycle is refused", () => {
  const l = new TaskList("alpha");
  const epic = l.create({ subject: "epic" }, T0, null);
  const kid = l.create({ subject: "kid", parent: epic.id }, T0, null);
  l.create({ subject: "grandkid", parent: kid.id }, T0, null);
  l.create({ subject: "other" }, T0, null);
  refused(() => l.update(epic.id, { parent: kid.id }, T0, null), /^parent:/);
  const rows = boardRows(l.tasks, T0, new Set());
  assertEquals(rows.find((r) => r.task.id === epic.id)?.rollup, [0, 1]);
  assertEquals(rows.find((r) => r.task.id === kid.id)?.epic_subject, "epic");
  const removed = l.delete(epic.id);
  assertEquals(removed.map((t) => t.subject), ["epic", "kid", "grandkid"]);
  assertEquals(l.tasks.map((t) => t.subject), ["other"]);
});

Deno.test("marks: stale when the owning worker's seat is gone; fleet counts ready, unowned, misses", () => {
  const l = new TaskList("alpha");
  const t = l.create({ subject: "x", owner: "w1", status: "in_progress" }, T0, "lead");
  l.create({ subject: "y" }, T0, null);
  l.create({ subject: "z", owner: "w2" }, T0, null);
  assert(boardRows(l.tasks, T0, new Set())[0].marks.stale);
  assert(!boardRows(l.tasks, T0, new Set(["w1"]))[0].marks.stale);
  assert(boardRows(l.tasks, T0 + 31 * min, new Set(["w1"]))[0].marks.no_movement);
  const f = fleetCounts(l.tasks, ["w1", "w3"]);
  assertEquals(f, {
    queue: { ready: 2, unowned: 1 },
    waiting_on_user: 0,
    rows: 3,
    misses: [{ unaccounted_worker: "w3" }],
  });
  l.move(t.id, "completed", T0);
  assert(!boardRows(l.tasks, T0, new Set())[0].marks.stale);
});
