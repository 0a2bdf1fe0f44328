import { assert, assertEquals, assertRejects } from "../tests/assert.ts";
import { until } from "../tests/harness.ts";
import { Connection } from "./connection.ts";
import { encodeData } from "./encoded.ts";
import { memoryLogger } from "./log.ts";
import type { Transport } from "./socket.ts";
import { recordingTransport } from "../tests/recording_transport.ts";
import { DEFAULT_TIMERS } from "./timers.ts";

function connection(transport: Transport): Connection {
  return new Connection(1, transport, {
    deflate: false,
    timers: DEFAULT_TIMERS,
    log: memoryLogger(),
    peer: "test",
  });
}

// spec: What a client sends > subscribe: the snapshot answers the subscribe, and what was emitted
// while the subject was read follows it.
Deno.test("frames sent while a snapshot is read wait behind it, in order", () => {
  const transport = recordingTransport();
  const conn = connection(transport);
  try {
    conn.send({ kind: "pong" });
    const release = conn.hold();
    conn.sendEncoded(JSON.stringify({ kind: "update" }), 17);
    conn.sendBinary(new Uint8Array(3));
    conn.send({ kind: "pong" });
    assertEquals(transport.sent, ["pong"]);
    // A stand-in for a home snapshot (`as never`): the hold's order is what this reads.
    conn.sendSnapshot("home", encodeData({ fatal_error: null } as never));
    release();
    assertEquals(transport.sent, ["pong", "snapshot", "update", "binary:3", "pong"]);
    conn.send({ kind: "pong" });
    assertEquals(transport.sent.length, 6);
  } finally {
    conn.end("closed");
  }
});

// The home a cleared fatal error pushes and the one `showing` sends are read this way.
Deno.test("readAndSend: what is sent during the read follows the snapshot; a failed read sends none", async () => {
  const transport = recordingTransport();
  const conn = connection(transport);
  try {
    await conn.readAndSend("home", async () => {
      await Promise.resolve();
      conn.sendEncoded(JSON.stringify({ kind: "update" }), 17);
      return encodeData({ fatal_error: null } as never);
    });
    assertEquals(transport.sent, ["snapshot", "update"]);
    await assertRejects(
      () =>
        conn.readAndSend("home", async () => {
          await Promise.resolve();
          conn.send({ kind: "pong" });
          throw new Error("the read failed");
        }),
      /the read failed/,
    );
    assertEquals(transport.sent, ["snapshot", "update", "pong"]);
  } finally {
    conn.end("closed");
  }
});

Deno.test("holds nest: the last release sends, and a second call of one release is nothing", () => {
  const transport = recordingTransport();
  const conn = connection(transport);
  try {
    const outer = conn.hold();
    const inner = conn.hold();
    conn.send({ kind: "pong" });
    inner();
    inner();
    assertEquals(transport.sent, []);
    outer();
    assertEquals(transport.sent, ["pong"]);
  } finally {
    conn.end("closed");
  }
});

Deno.test("a connection that ends while held sends nothing that waited", () => {
  const transport = recordingTransport();
  const conn = connection(transport);
  const release = conn.hold();
  conn.send({ kind: "pong" });
  conn.end("closed");
  release();
  assertEquals(transport.sent, []);
});

/**
 * A transport whose buffer counts each frame whole, its header included (`ws` over a TCP socket),
 * read by a peer that takes one frame each time the connection looks at the buffer: every frame
 * is written within one look of the frame before it.
 */
function steadyPeer(): Transport & { queued: number } {
  const frames: number[] = [];
  let sentBytes = 0;
  return {
    ...recordingTransport(),
    get queued() {
      return frames.length;
    },
    get sentBytes() {
      return sentBytes;
    },
    get bufferedAmount() {
      frames.shift();
      return frames.reduce((sum, n) => sum + n, 0);
    },
    send(data) {
      const payload = typeof data === "string"
        ? new TextEncoder().encode(data).length
        : data.length;
      const wire = (payload < 126 ? 2 : payload < 65536 ? 4 : 10) + payload;
      frames.push(wire);
      sentBytes += wire;
    },
  };
}

// spec: Reaching it, "One frame write is bounded": each frame, not the backlog as a whole. A
// frame's headers are in the buffer too; counted short by them, a frame read as written only once
// the headers of every frame queued after it had also left, long after it had.
Deno.test("a peer taking each frame well inside the write bound is not cut under a backlog", async () => {
  const transport = steadyPeer();
  const log = memoryLogger();
  const conn = new Connection(1, transport, {
    deflate: false,
    timers: { ...DEFAULT_TIMERS, writeBoundMs: 50, sampleMs: 10, pingDeadMs: 600_000 },
    log,
    peer: "test",
  });
  try {
    for (let i = 0; i < 100; i++) conn.send({ kind: "pong" });
    await until(() => transport.queued === 0 || conn.ended, 10_000, "the backlog to be read");
    assertEquals(log.records.filter((r) => r.event === "connection_ended"), []);
    assert(!conn.ended);
  } finally {
    conn.end("closed");
  }
});
