// The SDK's reconnect options: unset, each is the web client's number (tools/reconnect/, where
// the backoff loop and the probe are tested). spec: ping (15 s quiet, a browser's 65 s deadline).
import { assertEquals } from "../../tests/assert.ts";
import { MONOTONIC } from "../../server/clock.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { redialPlan } from "./redial.ts";

Deno.test("reconnect options: the web client's numbers unless given", () => {
  const { clock, random, ...plain } = redialPlan(true);
  assertEquals(plain, {
    minMs: 500,
    maxMs: 10_000,
    jitter: 0.25,
    tries: Infinity,
    quietMs: 15_000,
    deadlineMs: 65_000,
    viewMs: 10_000,
  });
  assertEquals([clock, random], [MONOTONIC, Math.random]);
  const manual = new ManualClock();
  const given = redialPlan({ maxMs: 4_000, tries: 3, deadlineMs: 10_000, clock: manual });
  assertEquals([given.minMs, given.maxMs, given.tries, given.deadlineMs], [500, 4_000, 3, 10_000]);
  assertEquals(given.clock, manual);
});
