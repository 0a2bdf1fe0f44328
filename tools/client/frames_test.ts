import { assertEquals } from "../../tests/assert.ts";
import { ConnectionClosed } from "./errors.ts";
import { type Frame, FrameLog } from "./frames.ts";

const json = (n: number): Frame => ({ type: "json", data: { kind: "pong", n }, compressed: false });
const n = (f: Frame) => f.type === "json" ? f.data.n : null;
const tail = () => "";

Deno.test("a wait takes the oldest matching frame and leaves the ones before it", async () => {
  const log = new FrameLog();
  for (let i = 0; i < 4; i++) log.push(json(i));
  assertEquals(n(await log.wait((f) => n(f) === 2, 1_000, tail)), 2);
  assertEquals(n(await log.wait(() => true, 1_000, tail)), 0);
  // A frame recorded as taken (the client's own) is never offered to a wait.
  log.push(json(9), true);
  assertEquals(n(await log.wait((f) => n(f) !== 0, 1_000, tail)), 1);
  assertEquals(log.frames.length, 5);
});

Deno.test("a bounded log keeps the newest frames, and a wait out still gets its frame", async () => {
  const log = new FrameLog(3);
  const waiting = log.wait((f) => n(f) === 7, 60_000, tail);
  for (let i = 0; i < 10; i++) log.push(json(i));
  assertEquals(n(await waiting), 7);
  assertEquals(log.frames.map(n), [7, 8, 9]);
  assertEquals(log.dropped, 7);
  // The untaken frames held are still there to take; the dropped ones are gone.
  assertEquals(n(await log.wait(() => true, 1_000, tail)), 8);
});

Deno.test("ending the log fails every wait at once and every later one that nothing answers", async () => {
  const log = new FrameLog();
  log.push(json(1));
  const waits = [log.wait(() => false, 60_000, tail), log.wait((f) => n(f) === 2, 60_000, tail)];
  log.end(() => new ConnectionClosed(1006, "", "the wait for a frame ended"));
  const failed = await Promise.allSettled(waits);
  assertEquals(
    failed.map((r) => r.status === "rejected" && r.reason instanceof ConnectionClosed),
    [true, true],
  );
  assertEquals(log.waiting, 0);
  // A frame already held is still read after the end; a wait for one that never came fails.
  assertEquals(n(await log.wait(() => true, 60_000, tail)), 1);
  const late = await log.wait(() => true, 60_000, tail).catch((e) => e);
  assertEquals(
    late.message,
    "the wait for a frame ended: the connection to forge is closed " +
      "(code 1006, the connection dropped without a close)",
  );
});
