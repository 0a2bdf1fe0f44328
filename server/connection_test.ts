import { assertEquals } from "../tests/assert.ts";
import { Connection } from "./connection.ts";
import { encodeData } from "./encoded.ts";
import { memoryLogger } from "./log.ts";
import type { Transport } from "./socket.ts";
import { DEFAULT_TIMERS } from "./timers.ts";

/** A transport that keeps what it was given, text as parsed kinds and binary as its length. */
function recordingTransport(): Transport & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    open: true,
    bufferedAmount: 0,
    send: (data) => {
      sent.push(typeof data === "string" ? JSON.parse(data).kind : `binary:${data.length}`);
    },
    ping: () => {},
    close: () => {},
    abort: () => {},
    pause: () => {},
    resume: () => {},
    onMessage: () => {},
    onInbound: () => {},
    onClose: () => {},
  };
}

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
