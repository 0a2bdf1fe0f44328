import { assertEquals } from "../tests/assert.ts";
import { FrameEnds } from "./frame_ends.ts";

Deno.test("frame ends: oldest first across growth and wrap-around, dropped through an offset", () => {
  const q = new FrameEnds();
  let end = 0;
  let dropped = 0;
  // Interleave pushes and drops so the ring wraps, then grows past its first 64 slots.
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 50 * (round + 1); i++) q.push(end += 10, end);
    const before = q.size;
    dropped += q.dropThrough(end - 100);
    assertEquals(q.size, before - (before - 10), "the ten newest frames stay");
    assertEquals(q.peek(), { end: end - 90, queuedAt: end - 90 });
  }
  assertEquals(dropped + q.size, 50 * (1 + 2 + 3 + 4 + 5));
  assertEquals(q.dropThrough(end), 10);
  assertEquals([q.size, q.peek()], [0, null]);
});
