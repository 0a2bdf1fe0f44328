// A fire handed to a lead mid-turn waits in the CLI's queue, in memory: the fired file keeps it
// `waiting` until the CLI moves it (spec: prompt_lifecycle), and a restart, or the lead's next
// CLI, hands it over again.
import { assertEquals } from "../../tests/assert.ts";
import { boardWorld } from "../../tests/board_support.ts";

const min = 60_000;
type World = Awaited<ReturnType<typeof boardWorld>>;

/** forge stops and comes up again over the same files: the new run's first tick, then its end. */
async function restart(w: World) {
  const board = await w.reopen();
  await board.crons.start();
  await board.crons.stop();
  return board;
}

/** Two one-shot schedules for alpha's lead, "one" then "two", each fired: their fires' uuids. */
async function twoFired(w: World): Promise<[string, string]> {
  const start = w.clock.t;
  const at = (n: number) => new Date(start + n * min).toISOString();
  const c = w.board.crons;
  await c.create("Acme", "alpha", "lead", { prompt: "one", run_once_at: at(1) });
  await c.create("Acme", "alpha", "lead", { prompt: "two", run_once_at: at(2) });
  for (const n of [1, 2]) {
    w.clock.t = start + n * min + 500;
    await c.tick();
  }
  assertEquals(w.delivered.map((d) => d.delivery.text), ["one", "two"]);
  const [one, two] = w.delivered.map((d) => d.delivery.uuid!);
  return [one, two];
}

Deno.test("a fire its lead's CLI never started is handed over again after a restart, once", async () => {
  await using w = await boardWorld();
  const e = await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "check the queue",
    schedule: "* * * * *",
    description: "queue check",
  });
  w.clock.t = Date.parse(e.next_fire) + 500;
  await w.board.crons.tick();
  const [first] = w.delivered;
  // No prompt_lifecycle came: the CLI held it when forge stopped.
  await restart(w);
  assertEquals(w.delivered.length, 2);
  const second = w.delivered[1];
  assertEquals(
    [second.delivery.uuid, second.delivery.once, second.delivery.text, second.slot],
    [first.delivery.uuid, true, first.delivery.text, first.slot],
  );
  // Still no prompt_lifecycle: the lead woken for it held it too (mid-turn on another), so a
  // second restart hands it over again, under its uuid with `once`.
  const third = await restart(w);
  assertEquals(w.delivered.map((d) => [d.delivery.uuid, d.delivery.once]).slice(2), [
    [first.delivery.uuid, true],
  ]);
  assertEquals(third.crons.nameOf(first.delivery.uuid!), "queue check");
  // Once its CLI starts it, no restart hands it over again.
  await third.crons.promptMoved(first.delivery.uuid!, "started");
  await restart(w);
  assertEquals(w.delivered.length, 3);
});

Deno.test("a fire handed again that had already landed is no longer waiting", async () => {
  await using w = await boardWorld();
  const e = await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "check the queue",
    schedule: "* * * * *",
  });
  w.clock.t = Date.parse(e.next_fire) + 500;
  await w.board.crons.tick();
  // Its row reached the transcript before forge stopped, its lifecycle unheard.
  w.landed.add(w.delivered[0].delivery.uuid!);
  await restart(w);
  await restart(w);
  assertEquals(w.delivered.length, 2, "handed again once, found landed, then left be");
});

Deno.test("a lead's next CLI is handed the fires its last one held unstarted, once", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  const [one, two] = await twoFired(w);
  await c.promptMoved(one, "started");
  // Another project's lead coming up takes nothing.
  await c.leadUp("Acme", "beta");
  assertEquals(w.delivered.length, 2);
  await c.leadUp("Acme", "alpha");
  assertEquals(w.delivered.map((d) => [d.delivery.uuid, d.delivery.once]).slice(2), [[two, true]]);
  // The CLI it went to holds it now: a lead up again before it started hands it once more.
  await c.leadUp("Acme", "alpha");
  assertEquals(w.delivered.length, 4);
  await c.promptMoved(two, "started");
  await c.leadUp("Acme", "alpha");
  assertEquals(w.delivered.length, 4);
});

Deno.test("a fire its CLI started, or a person cancelled, is not handed over again", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  const [one, two] = await twoFired(w);
  await c.promptMoved(one, "queued");
  await c.promptMoved(one, "started");
  await c.promptMoved(two, "cancelled");
  await restart(w);
  assertEquals(w.delivered.length, 2);
});
