// One schedule forge cannot fire never stops the others nor spins the tick: values that got past
// the file's parse yet fail when fired (here put straight into memory, as no file could carry
// them) park their schedule, logged once and said on it; an advance that cannot be saved waits
// RETRY_MS and hands the same prompt over with `once`. The clock is the tests' own.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { boardWorld, runTimers } from "../../tests/board_support.ts";
import { fieldsOf } from "../../protocol/mod.ts";
import type { CronEntry } from "../../protocol/mod.ts";
import { RETRY_MS } from "./cron.ts";
import { MAX_SLEEP_MS } from "./cron_timer.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;

function bad(id: string, t: number, fields: Partial<CronEntry>): CronEntry {
  return {
    id,
    org: "Acme",
    project: "alpha",
    schedule: { recurring: "0 * * * *" },
    prompt: `prompt of ${id}`,
    description: null,
    created_by: "lead",
    created_at: new Date(t - HOUR).toISOString(),
    next_fire: new Date(t - HOUR).toISOString(),
    last_fired: null,
    last_error: null,
    ...fields,
  };
}

/** An hour of the tick's own timers with one schedule every minute; answers the timers armed. */
async function hourOfMinutes(badOnes: (t: number) => CronEntry[]) {
  const w = await boardWorld();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "check", schedule: "* * * * *" });
  w.board.crons.entries.push(...badOnes(w.clock.t));
  const armed = w.clock.sets;
  await w.board.crons.start();
  await runTimers(w.clock, w.board.crons, HOUR);
  return { w, timers: w.clock.sets - armed };
}

Deno.test("a tick with entries that throw fires the good one, logs each bad one once, and never spins", async () => {
  const control = await hourOfMinutes(() => []);
  await using _ = control.w;
  const { w, timers } = await hourOfMinutes((t) => [
    // The auditor's two: an expression croner refuses, missed while forge was down; and a
    // next_fire that is not a date.
    bad("c-badexpr", t, { schedule: { recurring: "not a cron" } }),
    bad("c-badtime", t, { schedule: { once_at: "tomorrow" }, next_fire: "tomorrow" }),
  ]);
  await using _w = w;
  // The good one fired each minute of the hour, on time, as it does alone.
  assertEquals(w.delivered.map((d) => d.delivery.text), Array(60).fill("check"));
  assertEquals(control.w.delivered.length, 60);
  // The bad ones: nothing handed over, one record each, and a bounded count of timers: what
  // the good one arms alone, and a wake or two besides.
  const failed = w.log.records.filter((r) => r.event === "cron_fire_failed");
  assertEquals(failed.map((r) => (r as unknown as { cron: string }).cron).sort(), [
    "c-badexpr",
    "c-badtime",
  ]);
  assert(timers <= control.timers + 4, `${timers} timers against ${control.timers} alone`);
  assertEquals(w.log.records.filter((r) => r.event === "cron_tick_failed"), []);
  // Each says why on the entry, in forge's words, on the board and in the announcement.
  const listed = w.board.crons.list("Acme", "alpha");
  const why = (id: string) => listed.find((e) => e.id === id)!.last_error!;
  assertMatch(
    why("c-badexpr"),
    /^forge cannot fire it: `not a cron` is not a 5-field cron expression: it has 3 fields, .*; it waits until it is changed or deleted, or forge restarts$/,
  );
  assertMatch(why("c-badtime"), /^forge cannot fire it: its next_fire `tomorrow` is not a date;/);
  assertEquals(listed.find((e) => e.id !== "c-badexpr" && e.id !== "c-badtime")!.last_error, null);
  const snapshot = (await w.board.snapshot()).projects[0];
  assertEquals(snapshot.crons.map((e) => e.last_error), listed.map((e) => e.last_error));
  const announced = fieldsOf(w.emitted.at(-1)!, "cron_schedules_changed")!.crons;
  assertEquals(announced.map((e) => e.last_error), listed.map((e) => e.last_error));
});

Deno.test("a parked schedule mended on disk is released and fires as it now stands", async () => {
  await using w = await boardWorld();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "check", schedule: "0 0 1 1 *" });
  w.board.crons.entries.push(
    bad("c-badexpr", w.clock.t, { schedule: { recurring: "6o * * * *" } }),
  );
  await w.board.crons.start();
  assertMatch(w.board.crons.list("Acme", "alpha")[1].last_error!, /the minute field `6o`/);
  // Written out by the next change (the parse at the next boot would refuse it): a person mends
  // the expression, and the tick after takes the mended schedule in and fires it.
  await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "q",
    run_once_at: "2027-01-01T00:00:00Z",
  });
  const path = `${w.stateDir}/board/cron.json`;
  await Deno.writeTextFile(
    path,
    (await Deno.readTextFile(path)).replace('"6o * * * *"', '"0 * * * *"'),
  );
  await runTimers(w.clock, w.board.crons, MIN);
  assertEquals(w.delivered.map((d) => d.delivery.text.replace(/^\[missed cron .*\n\n/s, "")), [
    "prompt of c-badexpr",
  ]);
  assertEquals(w.log.records.filter((r) => r.event === "cron_unparked").length, 1);
  assertEquals(w.board.crons.list("Acme", "alpha").map((e) => e.last_error), [null, null, null]);
});

Deno.test("an advance that cannot be saved waits RETRY_MS, hands the same prompt over once, and catches up", async () => {
  await using w = await boardWorld();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "check", schedule: "*/5 * * * *" });
  // A directory where the keeper's temp file goes: every write of the schedules fails.
  const blocker = `${w.stateDir}/board/cron.json.keeper-tmp`;
  await Deno.mkdir(`${blocker}/in-the-way`, { recursive: true });
  await w.board.crons.start();
  const woke = await runTimers(w.clock, w.board.crons, 10 * MIN);
  // Due at 12:05 (the clock starts at noon), then tried again each RETRY_MS - 12:06 ... 12:10 -
  // with the same uuid and `once`, so the seat reads its transcript and sends it once.
  const fires = w.delivered.map((d) => d.delivery);
  assertEquals(fires.length, 1 + (5 * MIN) / RETRY_MS);
  assertEquals(new Set(fires.map((f) => f.uuid)).size, 1);
  assertEquals(fires.map((f) => f.once), [false, ...Array(fires.length - 1).fill(true)]);
  // Never in a loop: the tick woke once a chunk, the fires and retries on chunk boundaries.
  assertEquals(woke, 10 * MIN / MAX_SLEEP_MS);
  assertMatch(
    w.board.crons.list("Acme", "alpha")[0].last_error!,
    /^its next fire could not be saved \(the schedules could not be saved: .*cron\.json could not be written: a directory stands where the file should be\); tried again at /,
  );
  // The disk clears: the next retry saves the advance and the schedule runs as before.
  await Deno.remove(blocker, { recursive: true });
  await runTimers(w.clock, w.board.crons, RETRY_MS);
  const now = w.board.crons.list("Acme", "alpha")[0];
  assertEquals(now.last_error, null);
  assert(Date.parse(now.next_fire) > w.clock.t, now.next_fire);
});
