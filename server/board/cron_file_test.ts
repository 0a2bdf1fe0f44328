// The schedules' file as the keeper reads it (docs/state.md): an entry forge could not fire - a
// next_fire that is not an instant, an expression croner refuses - makes the whole file damaged,
// in forge's words naming the entry, its bytes kept and nothing fired over it.
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { boardWorld, runTimers } from "../../tests/board_support.ts";
import { MAX_SLEEP_MS } from "./cron_timer.ts";

const HOUR = 3_600_000;

const CASES: [string, Record<string, unknown>, RegExp][] = [
  [
    "a next_fire that is not a date",
    { schedule: { once_at: "tomorrow" }, next_fire: "tomorrow" },
    /its next_fire `tomorrow` is not an RFC 3339 instant \(like 2026-12-02T17:30:00Z\)/,
  ],
  [
    "a next_fire on a day the calendar lacks",
    { schedule: { once_at: "2027-02-30T09:00:00Z" }, next_fire: "2027-02-30T09:00:00Z" },
    /its next_fire `2027-02-30T09:00:00Z` is not an RFC 3339 instant/,
  ],
  [
    "a once_at that is not an instant",
    { schedule: { once_at: "next week" }, next_fire: "2026-12-03T09:00:00.000Z" },
    /its once_at `next week` is not an RFC 3339 instant/,
  ],
  [
    "an expression that is not five fields",
    { schedule: { recurring: "not a cron" }, next_fire: "2026-12-01T00:00:00.000Z" },
    /its recurring schedule `not a cron` is not a 5-field cron expression: it has 3 fields, and a schedule has five/,
  ],
  [
    "an expression with a field out of range",
    { schedule: { recurring: "61 * * * *" }, next_fire: "2026-12-01T00:00:00.000Z" },
    /its recurring schedule `61 \* \* \* \*` is not a 5-field cron expression: the minute field `61` cannot be read: it takes 0-59/,
  ],
];

for (const [what, fields, words] of CASES) {
  Deno.test(`a schedules file with ${what} is damaged as a whole, in forge's words`, async () => {
    await using w = await boardWorld();
    const at = (ms: number) => new Date(w.clock.t + ms).toISOString();
    const entry = (id: string, more: Record<string, unknown>) => ({
      id,
      org: "Acme",
      project: "alpha",
      prompt: `prompt of ${id}`,
      description: null,
      created_by: "lead",
      created_at: at(-HOUR),
      last_fired: null,
      last_error: null,
      ...more,
    });
    // A good schedule due a minute ago beside the bad one: the file is never half read, so it
    // does not fire either (its advance would write the bad entry's file over).
    const good = entry("c-good", { schedule: { recurring: "* * * * *" }, next_fire: at(-60_000) });
    const bytes = JSON.stringify({ version: 1, crons: [good, entry("c-bad", fields)] });
    const path = `${w.stateDir}/board/cron.json`;
    await Deno.mkdir(`${w.stateDir}/board`, { recursive: true });
    await Deno.writeTextFile(path, bytes);

    const again = await w.reopen();
    const error = again.crons.error!;
    assertMatch(error, /cron\.json did not parse \(schedule `c-bad` at crons\.1 cannot be fired: /);
    assertMatch(error, words);
    assertMatch(error, /forge kept a copy at .*cron\.json\.corrupt-.* until the file is mended/);
    // croner's own words (its pattern modes, "configuration", "Invalid value") never cross.
    assert(!/CronPattern|configuration|Invalid|5-part|illegal|NaN/.test(error), error);
    assertEquals((await again.snapshot()).projects[0].error, error);
    assertEquals(again.crons.list("Acme", "alpha"), []);

    // An hour of the tick's own timers: nothing fires, and it looks again once a chunk.
    const armed = w.clock.sets;
    await again.crons.start();
    await runTimers(w.clock, again.crons, HOUR);
    assertEquals(w.delivered, []);
    assert(w.clock.sets - armed <= HOUR / MAX_SLEEP_MS + 1, `${w.clock.sets - armed} timers`);
    assertEquals(w.log.records.filter((r) => r.event === "state_file_damaged").length, 1);
    assertEquals(w.log.records.filter((r) => r.event.startsWith("cron_")), []);
    await assertRejects(
      () => again.crons.create("Acme", "alpha", "lead", { prompt: "p", schedule: "0 9 * * *" }),
      /^the schedules cannot be changed: .*cron\.json did not parse \(schedule `c-bad` at crons\.1/,
    );

    // The bytes stand, and a copy of them is kept aside.
    assertEquals(await Deno.readTextFile(path), bytes);
    const asides = [...Deno.readDirSync(`${w.stateDir}/board`)]
      .filter((e) => e.name.startsWith("cron.json.corrupt-"));
    assertEquals(asides.length, 1);
    assertEquals(await Deno.readTextFile(`${w.stateDir}/board/${asides[0].name}`), bytes);

    // Mended by hand (the bad entry taken out): the next wake reads it and the good one fires.
    await Deno.writeTextFile(path, JSON.stringify({ version: 1, crons: [good] }));
    await runTimers(w.clock, again.crons, MAX_SLEEP_MS);
    await again.crons.stop();
    assertEquals(again.crons.error, null);
    assertEquals(w.delivered.length, 1);
    assertMatch(w.delivered[0].delivery.text, /^\[missed cron c-good\] .*\n\nprompt of c-good$/s);
  });
}
