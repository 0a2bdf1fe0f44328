// A fire handed to a lead mid-turn waits in the CLI's queue, in memory: the fired file keeps it
// `waiting` until the CLI moves it (spec: prompt_lifecycle), and a restart hands it over again.
import { assertEquals } from "../../tests/assert.ts";
import { boardWorld } from "../../tests/board_support.ts";

const min = 60_000;

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
  const again = await w.reopen();
  await again.crons.start();
  await again.crons.stop();
  assertEquals(w.delivered.length, 2);
  const second = w.delivered[1];
  assertEquals(
    [second.delivery.uuid, second.delivery.once, second.delivery.text, second.slot],
    [first.delivery.uuid, true, first.delivery.text, first.slot],
  );
  // Handed over again once: a second restart leaves it be.
  const third = await w.reopen();
  await third.crons.start();
  await third.crons.stop();
  assertEquals(w.delivered.length, 2);
  assertEquals(third.crons.nameOf(first.delivery.uuid!), "queue check");
});

Deno.test("a fire its CLI started, or a person cancelled, is not handed over again", async () => {
  await using w = await boardWorld();
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
  await c.promptMoved(one, "queued");
  await c.promptMoved(one, "started");
  await c.promptMoved(two, "cancelled");
  const again = await w.reopen();
  await again.crons.start();
  await again.crons.stop();
  assertEquals(w.delivered.length, 2);
});
