// The cron tick's one timer: it wakes at the earliest instant it is given, never sooner than
// MIN_SLEEP_MS nor later than MAX_SLEEP_MS, passes over an instant that is not a number, and a
// tick that fails is logged once while it fails the same way. The clock is the tests' own.
import { assert, assertEquals } from "../../tests/assert.ts";
import { boardWorld, HandClock, runTimers } from "../../tests/board_support.ts";
import { memoryLogger } from "../log.ts";
import { MAX_SLEEP_MS, MIN_SLEEP_MS, TickTimer } from "./cron_timer.ts";

const MIN = 60_000;

Deno.test("the timer never arms for NaN, Infinity or an instant past, and never past its chunk", async () => {
  const clock = new HandClock(Date.UTC(2026, 11, 2, 12));
  const timer = new TickTimer(clock, memoryLogger(), () => Promise.resolve());
  await timer.start();
  const waits = () => clock.armed.map((a) => a.at - clock.t);
  timer.wakeAt([NaN]);
  assertEquals(waits(), []);
  timer.wakeAt([Infinity, NaN]);
  assertEquals(waits(), []);
  timer.wakeAt([clock.t - 5 * MIN, NaN]);
  assertEquals(waits(), [MIN_SLEEP_MS]);
  timer.wakeAt([clock.t]);
  assertEquals(waits(), [MIN_SLEEP_MS]);
  timer.wakeAt([clock.t + 10_000, clock.t + 20_000, NaN]);
  assertEquals(waits(), [10_000]);
  timer.wakeAt([clock.t + 5 * MIN]);
  assertEquals(waits(), [MAX_SLEEP_MS]);
  timer.stop();
  assertEquals(waits(), []);
  timer.wakeAt([clock.t + 10_000]);
  assertEquals(waits(), [], "a stopped timer arms nothing");
});

Deno.test("a tick that fails is logged once, looked at again each chunk, and start never rejects", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  await c.create("Acme", "alpha", "lead", { prompt: "check", schedule: "*/5 * * * *" });
  // A tick that throws before it fires anything (here the clock itself), again and again.
  let broken = true;
  const now = w.clock.now.bind(w.clock);
  w.clock.now = () => {
    if (broken) throw new Error("the clock broke");
    return now();
  };
  await c.start(); // resolves: the failure is the tick's own to report
  const woke = await runTimers(w.clock, c, 10 * MIN);
  const failed = () => w.log.records.filter((r) => r.event === "cron_tick_failed");
  assertEquals(failed().length, 1);
  assertEquals(woke, 10 * MIN / MAX_SLEEP_MS);
  assertEquals(w.delivered, []);
  // Mended: the next wake fires what fell due (late, and it says so), and the tick runs on.
  broken = false;
  await runTimers(w.clock, c, MAX_SLEEP_MS);
  assertEquals(w.delivered.length, 1);
  assert(w.delivered[0].delivery.text.includes("forge could not fire it in time"));
  // A failure after a good tick is news again: logged once more.
  broken = true;
  await runTimers(w.clock, c, 5 * MIN);
  assertEquals(failed().length, 2);
  await c.stop();
});
