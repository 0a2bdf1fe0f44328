// The slow polls (the status page, npm's newest claude) run on this schedule: a tick that
// throws or rejects is handed to `failed` and the next tick still comes; a slow tick never
// stacks with the next. The clock is moved by hand.
import { assertEquals } from "../../tests/assert.ts";
import { ManualClock, settle } from "../../tests/manual_clock.ts";
import { every } from "./poll.ts";

Deno.test("every: a throwing or rejecting tick is handed to failed and the next still comes", async () => {
  const clock = new ManualClock();
  const failed: string[] = [];
  let ticks = 0;
  const poll = every(1_000, clock)(() => {
    ticks++;
    if (ticks === 1) throw new Error("thrown at once");
    if (ticks === 2) return Promise.reject(new Error("rejected"));
    return Promise.resolve();
  }, (error) => failed.push((error as Error).message));
  await settle();
  await clock.advanceSettling(1_000);
  await clock.advanceSettling(1_000);
  assertEquals([ticks, failed], [3, ["thrown at once", "rejected"]]);
  poll.stop();
  await clock.advanceSettling(5_000);
  assertEquals([ticks, clock.pending], [3, 0], "nothing after stop");
});

Deno.test("every: the next tick is armed only once the last one ended", async () => {
  const clock = new ManualClock();
  const release = Promise.withResolvers<void>();
  let ticks = 0;
  const poll = every(1_000, clock)(async () => {
    ticks++;
    if (ticks === 1) await release.promise;
  }, () => {});
  await clock.advanceSettling(10_000);
  assertEquals([ticks, clock.pending], [1, 0], "a slow read holds the next");
  release.resolve();
  await settle();
  await clock.advanceSettling(1_000);
  assertEquals(ticks, 2);
  poll.stop();
});
