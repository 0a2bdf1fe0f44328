import { assertEquals } from "./assert.ts";
import { type TestServer, testServer, until } from "./harness.ts";
import { RawSocket } from "./raw_socket.ts";

// spec: Reaching it, "One frame write is bounded too": the bound is on each frame, so a reader
// that takes every frame well inside it is served a backlog far longer than it, and one that
// stops reading part-way through is still cut. The bound here is 1.5 s; a frame of 1 MB to a
// reader taking 4 MB a second is a quarter of a second, a sixth of the bound, and the backlog of
// 20 such frames five seconds: more than three bounds.
const WRITE_BOUND_MS = 1500;
const FRAME_BYTES = 1_000_000;
const READ_RATE = 4_000_000;
const FRAMES = 20;

/** A home subscriber on a raw socket, sent FRAMES frames of FRAME_BYTES, read at READ_RATE. */
async function backlog(t: TestServer): Promise<RawSocket> {
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: true });
  await raw.sendText(JSON.stringify({ kind: "subscribe", what: "home" }));
  await until(() => raw.texts().some((s) => s.includes('"snapshot"')));
  raw.throttle(READ_RATE);
  for (let i = 0; i < FRAMES; i++) {
    t.server.workspace.emit({
      name: "fatal_error",
      fields: { error: "config_invalid", message: String(i % 10).repeat(FRAME_BYTES) },
    });
  }
  return raw;
}

function bigFrames(raw: RawSocket): number {
  return raw.texts().filter((s) => s.includes('"fatal_error"')).length;
}

function endings(t: TestServer): string[] {
  return t.log.records.filter((r) => r.event === "connection_ended").map((r) =>
    (r as unknown as { reason: string }).reason
  );
}

const timers = { writeBoundMs: WRITE_BOUND_MS, sampleMs: 50, pingDeadMs: 600_000 };

Deno.test("a reader taking each frame inside the write bound gets a backlog longer than it", async () => {
  await using t = await testServer(null, { timers });
  const raw = await backlog(t);
  await until(
    () => bigFrames(raw) === FRAMES || endings(t).length > 0,
    60_000,
    "every frame, or the connection's end",
  );
  assertEquals(endings(t), []);
  assertEquals(bigFrames(raw), FRAMES);
  assertEquals(t.server.connections(), 1);
  raw.close();
});

Deno.test("a reader that stops part-way through a backlog is still cut by the write bound", async () => {
  await using t = await testServer(null, { timers });
  const raw = await backlog(t);
  await until(() => bigFrames(raw) >= 2, 30_000, "the first frames");
  raw.pause();
  await until(() => endings(t).length > 0, 30_000, "the connection's end");
  assertEquals(endings(t), ["write_bound"]);
  await until(() => t.server.connections() === 0, 10_000, "the connection to be torn down");
  raw.close();
});
