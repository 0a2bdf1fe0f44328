import { assertEquals } from "../tests/assert.ts";
import { WireTime, wireTime, wireTimeMs } from "./wire_time.ts";

Deno.test("an instant crosses as serde's pair and back, to the millisecond", () => {
  const ms = Date.parse("2026-03-02T10:00:30.123Z");
  const pair = wireTime(ms);
  assertEquals(pair, { secs_since_epoch: Math.floor(ms / 1000), nanos_since_epoch: 123_000_000 });
  assertEquals(WireTime.safeParse(pair).success, true);
  assertEquals(wireTimeMs(pair), ms);
  // A fractional instant (performance clocks) still makes whole nanoseconds.
  assertEquals(WireTime.safeParse(wireTime(ms + 0.5)).success, true);
  assertEquals(wireTimeMs(wireTime(ms + 0.5)), ms);
});
