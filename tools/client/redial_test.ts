// The redial loop on a clock the test moves by hand: waits double to their ceiling, jitter keeps
// them within its band, and `tries` failed dials in a row end it. spec: The socket > Reaching it
// ("What a reconnect must do is the client's own rule").
import { assert, assertEquals } from "../../tests/assert.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { ConnectFailed, ConnectionClosed } from "./errors.ts";
import { backoffMs, type LinkEvent, Redialer, redialPlan } from "./redial.ts";

Deno.test("backoff: doubling from the first wait to the ceiling, jitter within its band", () => {
  const middle = redialPlan({ minMs: 500, maxMs: 4_000, random: () => 0.5 });
  assertEquals([1, 2, 3, 4, 5, 9].map((n) => backoffMs(middle, n)), [
    500,
    1000,
    2000,
    4000,
    4000,
    4000,
  ]);
  const low = redialPlan({ minMs: 500, maxMs: 4_000, random: () => 0 });
  const high = redialPlan({ minMs: 500, maxMs: 4_000, random: () => 0.999999 });
  assertEquals([backoffMs(low, 1), backoffMs(high, 1)], [375, 625]);
  assertEquals([backoffMs(low, 8), backoffMs(high, 8)], [3000, 5000]);
  const plain = redialPlan(true);
  assertEquals([plain.minMs, plain.maxMs, plain.jitter, plain.tries], [
    500,
    10_000,
    0.25,
    Infinity,
  ]);
});

Deno.test("redial: failed dials wait longer each time; `tries` of them end it", async () => {
  const clock = new ManualClock();
  const events: LinkEvent[] = [];
  let dials = 0;
  let gaveUp: ConnectFailed | null = null;
  const loop = new Redialer(redialPlan({ clock, random: () => 0.5, tries: 3 }), {
    dial: () => {
      dials++;
      return Promise.reject(new ConnectFailed("ws://x/socket", null, "nothing answered"));
    },
    event: (e) => events.push(e),
    gaveUp: (why) => gaveUp = why,
  });
  loop.dropped(new ConnectionClosed(1006, "", "the connection dropped"));
  // Nothing is dialled until the wait is over.
  assertEquals([dials, clock.pending], [0, 1]);
  await clock.advanceSettling(499);
  assertEquals(dials, 0);
  await clock.advanceSettling(1 + 1000 + 2000);
  assertEquals(dials, 3);
  assertEquals(events.map((e) => e.kind === "reconnecting" ? [e.attempt, e.retryInMs] : e.kind), [
    [1, 500],
    [2, 1000],
    [3, 2000],
  ]);
  assert(gaveUp !== null && (gaveUp as ConnectFailed).message === "nothing answered");
  assertEquals(clock.pending, 0);
});

Deno.test("redial: a dial that opens says so; a drop after it starts the waits again", async () => {
  const clock = new ManualClock();
  const events: LinkEvent[] = [];
  let fail = true;
  const loop = new Redialer(redialPlan({ clock, random: () => 0.5 }), {
    dial: () => fail ? Promise.reject(new ConnectFailed("u", null, "no")) : Promise.resolve(),
    event: (e) => events.push(e),
    gaveUp: () => {
      throw new Error("no bound was set");
    },
  });
  loop.dropped(new ConnectionClosed(1001, "", "the connection dropped"));
  await clock.advanceSettling(500);
  fail = false;
  await clock.advanceSettling(1000);
  assertEquals(events.at(-1), { kind: "reconnected", attempt: 2 });
  loop.dropped(new ConnectionClosed(1006, "", "the connection dropped"));
  const again = events.at(-1)!;
  assert(again.kind === "reconnecting");
  assertEquals([again.attempt, again.retryInMs], [1, 500]);
  // Closed while waiting: the dial never happens.
  loop.stop();
  assertEquals(clock.pending, 0);
});

Deno.test("redial: a dial forge refuses with a status ends the loop at once", async () => {
  const clock = new ManualClock();
  let gaveUp: ConnectFailed | null = null;
  const refusal = new ConnectFailed("u", 403, "forge refused the connection (HTTP 403: ...)");
  const loop = new Redialer(redialPlan({ clock, random: () => 0.5 }), {
    dial: () => Promise.reject(refusal),
    event: () => {},
    gaveUp: (why) => gaveUp = why,
  });
  loop.dropped(new ConnectionClosed(1006, "", "the connection dropped"));
  await clock.advanceSettling(500);
  assertEquals([gaveUp, clock.pending], [refusal, 0]);
});
