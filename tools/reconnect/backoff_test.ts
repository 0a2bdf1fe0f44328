// The redial loop both the SDK and the web client run, on a clock the test moves by hand: waits
// double to their ceiling, jitter keeps them within its band, `tries` failed dials in a row end
// it, a final failure ends it at once, and `now()` cuts a wait short. spec: The socket > Reaching
// it ("What a reconnect must do is the client's own rule").
import { assert, assertEquals } from "../../tests/assert.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { BACKOFF, backoffMs, Redialer, type RedialPlan, type RedialTo } from "./backoff.ts";

const plan = (o: Partial<RedialPlan> = {}): RedialPlan => ({
  ...BACKOFF,
  random: () => 0.5,
  tries: Infinity,
  clock: new ManualClock(),
  ...o,
});

/** A loop whose dials fail while `fail()` says so, and what it told its link. */
function loop(p: RedialPlan, fail: () => string | null, final?: (why: string) => boolean) {
  const heard: (string | [number, number, string])[] = [];
  let dials = 0;
  let gaveUp: string | null = null;
  const to: RedialTo<string> = {
    dial: () => {
      dials++;
      const why = fail();
      return why === null ? Promise.resolve() : Promise.reject(why);
    },
    waiting: (attempt, retryInMs, why) => heard.push([attempt, retryInMs, why]),
    opened: (attempt) => heard.push(`opened ${attempt}`),
    gaveUp: (why) => gaveUp = why,
    final,
  };
  return { r: new Redialer(p, to), heard, dials: () => dials, gaveUp: () => gaveUp };
}

Deno.test("backoff: doubling from the first wait to the ceiling, jitter within its band", () => {
  const middle = plan({ minMs: 500, maxMs: 4_000 });
  assertEquals([1, 2, 3, 4, 5, 9].map((n) => backoffMs(middle, n)), [
    500,
    1000,
    2000,
    4000,
    4000,
    4000,
  ]);
  const low = plan({ minMs: 500, maxMs: 4_000, random: () => 0 });
  const high = plan({ minMs: 500, maxMs: 4_000, random: () => 0.999999 });
  assertEquals([backoffMs(low, 1), backoffMs(high, 1)], [375, 625]);
  assertEquals([backoffMs(low, 8), backoffMs(high, 8)], [3000, 5000]);
  // The clients' pair: half a second to ten, a quarter's jitter.
  assertEquals([1, 5, 6, 20].map((n) => backoffMs(plan(), n)), [500, 8000, 10_000, 10_000]);
  assertEquals(BACKOFF, { minMs: 500, maxMs: 10_000, jitter: 0.25 });
});

Deno.test("redial: failed dials wait longer each time; `tries` of them end it", async () => {
  const clock = new ManualClock();
  const t = loop(plan({ clock, tries: 3 }), () => "nothing answered");
  t.r.dropped("the connection dropped");
  // Nothing is dialled until the wait is over.
  assertEquals([t.dials(), clock.pending, t.r.waiting], [0, 1, true]);
  await clock.advanceSettling(499);
  assertEquals(t.dials(), 0);
  await clock.advanceSettling(1 + 1000 + 2000);
  assertEquals(t.dials(), 3);
  assertEquals(t.heard, [
    [1, 500, "the connection dropped"],
    [2, 1000, "nothing answered"],
    [3, 2000, "nothing answered"],
  ]);
  assertEquals([t.gaveUp(), clock.pending, t.r.waiting], ["nothing answered", 0, false]);
});

Deno.test("redial: a dial that opens says so; a drop after it starts the waits again", async () => {
  const clock = new ManualClock();
  let fail = true;
  const t = loop(plan({ clock }), () => fail ? "no" : null);
  t.r.dropped("dropped");
  await clock.advanceSettling(500);
  fail = false;
  await clock.advanceSettling(1000);
  assertEquals(t.heard.at(-1), "opened 2");
  assertEquals(t.r.waiting, false);
  t.r.dropped("dropped again");
  assertEquals(t.heard.at(-1), [1, 500, "dropped again"]);
  // Closed while waiting: the dial never happens.
  t.r.stop();
  assertEquals(clock.pending, 0);
  await clock.advanceSettling(60_000);
  assertEquals(t.dials(), 2);
});

Deno.test("redial: a failure the link calls final ends the loop at once", async () => {
  const clock = new ManualClock();
  const t = loop(plan({ clock }), () => "HTTP 403", (why) => why.startsWith("HTTP"));
  t.r.dropped("dropped");
  await clock.advanceSettling(500);
  assertEquals([t.gaveUp(), clock.pending, t.dials()], ["HTTP 403", 0, 1]);
});

Deno.test("redial: now() dials at once and the waits start over; only while waiting", async () => {
  const clock = new ManualClock();
  let fail = true;
  const t = loop(plan({ clock }), () => fail ? "no" : null);
  // Not waiting: nothing to cut short.
  t.r.now();
  assertEquals(t.dials(), 0);
  t.r.dropped("dropped");
  await clock.advanceSettling(500 + 1000);
  assertEquals(t.heard.at(-1), [3, 2000, "no"]);
  // The network came back: the dial is now, and its failure waits the first step again.
  t.r.now();
  assertEquals([t.dials(), clock.pending], [3, 0]);
  await clock.advanceSettling(0);
  assertEquals(t.heard.at(-1), [1, 500, "no"]);
  fail = false;
  t.r.now();
  await clock.advanceSettling(0);
  assertEquals(t.heard.at(-1), "opened 0");
  // A dial out or a link open: now() does nothing.
  t.r.now();
  assertEquals(t.dials(), 4);
  assert(!t.r.waiting);
});
