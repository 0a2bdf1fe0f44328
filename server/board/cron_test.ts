// The cron store and tick, as the original forge's `cron` tool family (5-field expression in host
// local time or one RFC 3339 instant; one-shots removed after firing; a missed fire is marked);
// spec "Not every frame on the stream is the CLI's" (a fire is a delivery with source cron);
// page > cron_names.
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { FIRST_RETRY_MS, RETRY_MS } from "./cron.ts";
import { MAX_SLEEP_MS } from "./cron_timer.ts";
import { fieldsOf } from "../../protocol/mod.ts";
import { boardWorld } from "../../tests/board_support.ts";

const min = 60_000;

Deno.test("cron__create input is refused in words naming the field; nothing is stored", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  const tries: [Record<string, string>, RegExp][] = [
    [{ prompt: "x" }, /^schedule, run_once_at: give exactly one/],
    [{ prompt: "x", schedule: "* * * * *", run_once_at: "2030-01-01T00:00:00Z" }, /exactly one/],
    [
      { prompt: "x", schedule: "61 * * * *" },
      /^schedule: `61 \* \* \* \*`.*the minute field `61` cannot be read: it takes 0-59/,
    ],
    [{ prompt: "x", schedule: "0 25 * * *" }, /the hour field `25` cannot be read: it takes 0-23/],
    [{ prompt: "x", schedule: "* * *" }, /^schedule: .*it has 3 fields, and a schedule has five/],
    [{ prompt: "x", schedule: "*/5 * * * * *" }, /^schedule: .*it has 6 fields/],
    [{ prompt: "x", run_once_at: "tomorrow" }, /^run_once_at: `tomorrow` is not an RFC 3339/],
    [
      { prompt: "x", run_once_at: "2027-02-30T09:00:00Z" },
      /^run_once_at: `2027-02-30T09:00:00Z` is not/,
    ],
    [{ prompt: "x", run_once_at: "2020-01-01T00:00:00Z" }, /^run_once_at: .*in the past/],
    [{ prompt: " ", schedule: "* * * * *" }, /^prompt: must not be empty/],
  ];
  for (const [input, re] of tries) {
    const err = await assertRejects(() => c.create("Acme", "alpha", "lead", input as never), re);
    // croner's own words (its pattern modes, "configuration", "Invalid value") never cross.
    assert(
      !/CronPattern|configuration|Invalid value|5-part|illegal/.test(String(err)),
      String(err),
    );
  }
  assertEquals(c.entries, []);
  assertEquals(w.emitted, []);
});

Deno.test("a due recurring schedule fires once into the lead, names its prompt, and advances", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  const e = await c.create("Acme", "alpha", "lead", {
    prompt: "check the queue",
    schedule: "* * * * *",
    description: "queue check",
  });
  assertEquals(w.emitted.map((u) => u.name), ["cron_schedules_changed"]);
  const due = Date.parse(e.next_fire);
  assert(due > w.clock.t && due - w.clock.t <= min);
  w.clock.t = due + 500;
  await c.tick();
  assertEquals(w.delivered.length, 1);
  const d = w.delivered[0];
  assertEquals([d.slot.label, d.delivery.text, d.delivery.source], [
    "lead",
    "check the queue",
    "cron",
  ]);
  assertEquals(c.nameOf(d.delivery.uuid!), "queue check");
  assertEquals(c.entries[0].next_fire, new Date(due + min).toISOString());
  assertEquals(c.entries[0].last_fired, new Date(due + 500).toISOString());
  await c.tick(); // nothing more is due
  assertEquals(w.delivered.length, 1);
});

Deno.test("a server down across two due fires fires once on return, and the turn says so", async () => {
  await using w = await boardWorld();
  const e = await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "standup",
    schedule: "*/5 * * * *",
  });
  const due = Date.parse(e.next_fire);
  // The restart: a new board reads the stored schedules, the clock is past two occurrences.
  w.clock.t = due + 5 * min + 30_000;
  const again = await w.reopen();
  await again.crons.start();
  await again.crons.stop();
  assertEquals(w.delivered.length, 1);
  const text = w.delivered[0].delivery.text;
  assertMatch(
    text,
    /^\[missed cron c-[0-9a-f]{8}\] .*was due at .* while forge was not running; 2 occurrences fell due, and it fires once now\.\n\nstandup$/s,
  );
  assertEquals(again.crons.entries[0].next_fire, new Date(due + 10 * min).toISOString());
});

Deno.test("a one-shot fires once and is gone, from memory and from disk", async () => {
  await using w = await boardWorld();
  const at = new Date(w.clock.t + 90_000).toISOString();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "ping", run_once_at: at });
  w.clock.t += 90_000;
  await w.board.crons.tick();
  await w.board.crons.tick();
  assertEquals(w.delivered.length, 1);
  assertEquals(w.board.crons.entries, []);
  assertEquals((await w.reopen()).crons.entries, []);
  const last = w.emitted.at(-1)!;
  assertEquals(fieldsOf(last, "cron_schedules_changed")?.crons, []);
});

Deno.test("a fire that cannot be delivered keeps its schedule, says why, and is tried again", async () => {
  await using w = await boardWorld();
  const at = new Date(w.clock.t + min).toISOString();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "ping", run_once_at: at });
  w.clock.t += min;
  w.failDeliveries = "the lead's launch failed";
  // Tried again soon, then less and less often: 5 s, 10 s, 20 s, 40 s, then every minute.
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    await w.board.crons.tick();
    const kept = w.board.crons.entries[0];
    assertEquals(kept.last_error, "the lead's launch failed");
    waits.push(Date.parse(kept.next_fire) - w.clock.t);
    w.clock.t = Date.parse(kept.next_fire);
  }
  assertEquals(waits, [FIRST_RETRY_MS, 10_000, 20_000, 40_000, RETRY_MS, RETRY_MS]);
  w.failDeliveries = null;
  await w.board.crons.tick();
  assertEquals(w.delivered.length, 1);
  assertEquals(w.board.crons.entries, []);
});

Deno.test("fired prompts keep their schedule's name across a restart", async () => {
  await using w = await boardWorld();
  const e = await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "p",
    schedule: "0 * * * *",
  });
  w.clock.t = Date.parse(e.next_fire);
  await w.board.crons.tick();
  const uuid = w.delivered[0].delivery.uuid!;
  const again = await w.reopen();
  assertEquals(again.crons.nameOf(uuid), "0 * * * *");
  assertEquals(again.crons.nameOf("not-a-fire"), undefined);
});

Deno.test("a fire held back while forge runs says it is late, not that forge was down", async () => {
  await using w = await boardWorld();
  await w.board.crons.start(); // the boot catch-up: nothing due
  const e = await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "p",
    schedule: "0 * * * *",
  });
  w.clock.t = Date.parse(e.next_fire) + 5 * min;
  await w.board.crons.tick();
  assertMatch(
    w.delivered[0].delivery.text,
    /and forge could not fire it in time; its one occurrence fell due/,
  );
});

Deno.test("the tick sleeps to the earliest fire, never longer than its chunk", async () => {
  await using w = await boardWorld();
  await w.board.crons.start();
  await w.board.crons.create("Acme", "alpha", "lead", {
    prompt: "p",
    run_once_at: new Date(w.clock.t + 10_000).toISOString(),
  });
  assertEquals(w.clock.armed.map((a) => a.at - w.clock.t), [10_000]);
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "q", schedule: "0 0 1 1 *" });
  assertEquals(w.clock.armed.length, 1);
  await w.board.crons.delete("Acme", "alpha", w.board.crons.entries[0].id);
  assertEquals(w.clock.armed.map((a) => a.at - w.clock.t), [MAX_SLEEP_MS]);
  await assertRejects(() => w.board.crons.delete("Acme", "alpha", "c-none"), /^id: no schedule/);
});

Deno.test("a restart 10 s after a schedule fell due gives a turn that says it was missed", async () => {
  await using w = await boardWorld();
  const at = new Date(w.clock.t + min).toISOString();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "ping", run_once_at: at });
  // forge goes down before the fire and is back 10 s after it fell due: far inside the grace a
  // running forge allows itself, and still a fire forge was not there to make.
  w.clock.t = Date.parse(at) + 10_000;
  const again = await w.reopen();
  await again.crons.start();
  await again.crons.stop();
  assertEquals(w.delivered.length, 1);
  assertMatch(
    w.delivered[0].delivery.text,
    /^\[missed cron c-[0-9a-f]{8}\] This schedule \(once at .*\) was due at .* while forge was not running; its one occurrence fell due, and it fires once now\.\n\nping$/s,
  );
  assertEquals(w.delivered[0].delivery.once, false);
});

Deno.test("a fire a crash cut between its delivery and its advance is handed over once, by its uuid", async () => {
  await using w = await boardWorld();
  const at = new Date(w.clock.t + min).toISOString();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "ping", run_once_at: at });
  w.clock.t = Date.parse(at);
  // The crash: the fire's uuid was written and the delivery made, the advance never landed.
  const path = `${w.stateDir}/board/cron.json`;
  const before = await Deno.readTextFile(path);
  await w.board.crons.tick();
  const first = w.delivered[0].delivery;
  await Deno.writeTextFile(path, before);
  w.clock.t += 10_000;
  const again = await w.reopen();
  await again.crons.start();
  await again.crons.stop();
  // The same prompt again, marked `once`: the seat reads its transcript and does not resend it.
  assertEquals(w.delivered.length, 2);
  const second = w.delivered[1].delivery;
  assertEquals([second.uuid, second.once], [first.uuid, true]);
  assertEquals(again.crons.entries, []);
  assertEquals(again.crons.nameOf(first.uuid!), "once at " + at);
});

Deno.test("damaged schedules are kept aside, named, never fired or overwritten, until mended", async () => {
  await using w = await boardWorld();
  const at = new Date(w.clock.t + min).toISOString();
  await w.board.crons.create("Acme", "alpha", "lead", { prompt: "ping", run_once_at: at });
  const path = `${w.stateDir}/board/cron.json`;
  const whole = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, `{"version": 1, "crons": [{"id": 7}]}`);
  w.clock.t = Date.parse(at) + 1000;
  const damaged = await w.reopen();
  assertMatch(
    damaged.crons.error!,
    /cron\.json did not parse \(its content is not a schedule list/,
  );
  assertMatch((await damaged.snapshot()).projects[0].error!, /cron\.json did not parse/);
  await damaged.crons.start();
  assertEquals(w.delivered, []);
  await assertRejects(
    () => damaged.crons.create("Acme", "alpha", "lead", { prompt: "p", schedule: "0 9 * * *" }),
    /^the schedules cannot be changed: .*cron\.json did not parse .* until the file is mended or removed$/,
  );
  assertEquals(await Deno.readTextFile(path), `{"version": 1, "crons": [{"id": 7}]}`);
  const asides = [...Deno.readDirSync(`${w.stateDir}/board`)].filter((e) =>
    e.name.startsWith("cron.json.corrupt-")
  );
  assertEquals(asides.length, 1);
  // Mended: the next tick reads it back and fires what was due, saying it was missed.
  await Deno.writeTextFile(path, whole);
  await damaged.crons.tick();
  await damaged.crons.stop();
  assertEquals(damaged.crons.error, null);
  assertEquals(w.delivered.length, 1);
  assertMatch(w.delivered[0].delivery.text, /^\[missed cron /);
});

Deno.test("schedules changed on disk since they were read: broken, nothing fires; edited, the edit fires", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  const e = await c.create("Acme", "alpha", "lead", { prompt: "standup", schedule: "0 * * * *" });
  const path = `${w.stateDir}/board/cron.json`;
  const stored = await Deno.readTextFile(path);
  w.clock.t = Date.parse(e.next_fire) + 500;
  // Broken by hand: the tick reads it again first, fires nothing, and the bytes stand.
  await Deno.writeTextFile(path, stored.slice(0, 40));
  await c.tick();
  assertEquals(w.delivered.length, 0);
  assertMatch(c.error!, /cron\.json did not parse \(it is not whole JSON\)/);
  assertEquals(await Deno.readTextFile(path), stored.slice(0, 40));
  // Mended with an edit: the tick takes the edit in, fires it, and the advance keeps it.
  await Deno.writeTextFile(path, stored.replace('"standup"', '"standup, edited"'));
  await c.tick();
  assertEquals(w.delivered.map((d) => d.delivery.text), ["standup, edited"]);
  const after = JSON.parse(await Deno.readTextFile(path)).crons;
  assertEquals([after[0].prompt, after[0].last_fired], [
    "standup, edited",
    c.entries[0].last_fired,
  ]);
  // Edited again while whole: the next fire is the new words, not the ones the run held.
  w.clock.t = Date.parse(c.entries[0].next_fire) + 500;
  const edited = (await Deno.readTextFile(path)).replace('"standup, edited"', '"retro"');
  await Deno.writeTextFile(path, edited);
  await c.tick();
  assertEquals(w.delivered.map((d) => d.delivery.text), ["standup, edited", "retro"]);
});

Deno.test("a schedule that falls due while the tick reads its file fires in that tick", async () => {
  await using w = await boardWorld();
  const c = w.board.crons;
  await c.start();
  const at = w.clock.t + 50_000;
  await c.create("Acme", "alpha", "lead", {
    prompt: "ping",
    run_once_at: new Date(at).toISOString(),
  });
  // The chunk's wake, and the clock moving on to the fire while the tick looks at the file (a
  // clock a test moves runs the wake, then moves): the tick judges what is due after the read.
  const [wake] = w.clock.armed.splice(0);
  assertEquals(wake.at - w.clock.t, MAX_SLEEP_MS);
  w.clock.t = wake.at;
  wake.fn();
  w.clock.t = at;
  await c.settled();
  assertEquals(w.delivered.map((d) => d.delivery.text), ["ping"]);
  assertEquals(c.entries, []);
});
