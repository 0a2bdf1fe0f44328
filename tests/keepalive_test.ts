import { assert, assertEquals } from "./assert.ts";
import { testServer, until } from "./harness.ts";
import { RawSocket } from "./raw_socket.ts";

// The spec's clocks are 60 s; these tests shorten them through the documented override
// (FORGE_TEST_TIMERS / ServerOptions.timers) and check the behaviour, not the numbers.

// spec: Reaching it: "ends a connection whose ping has gone unanswered for 60".
Deno.test("a peer that never answers a ping is ended after the dead bound", async () => {
  await using t = await testServer(null, { timers: { pingDeadMs: 1000 } });
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: false });
  const why = await raw.closed();
  assert(raw.pings >= 1, "the server pinged first");
  assert(why === "close 1001" || why === "eof", why);
  // Ended by the keepalive, not by anything else. (When, after the unanswered ping, is
  // `tools/deno.sh task bench lifecycle`'s figure.)
  await until(
    () =>
      t.log.records.some((r) =>
        r.event === "connection_ended" &&
        (r as unknown as { reason: string }).reason === "keepalive"
      ),
    5000,
    "the keepalive's end record",
  );
  await until(() => t.server.connections() === 0, 5000, "the connection to be torn down");
  raw.close();
});

Deno.test("a peer that answers pings stays connected through quiet", async () => {
  await using t = await testServer(null, { timers: { pingDeadMs: 500 } });
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: true });
  await until(() => raw.pings >= 3, 10_000, "three pings");
  assertEquals(t.server.connections(), 1);
  await raw.sendText(JSON.stringify({ kind: "ping" }));
  await until(() => raw.texts().some((s) => s === '{"kind":"pong"}'));
  raw.close();
});

// spec: "The bound sits above the slowest frame measured - a 3.5 MB snapshot to a slow client".
Deno.test("a slow reader of a 3.5 MB frame is not ended by the keepalive", async () => {
  await using t = await testServer(null, { timers: { pingDeadMs: 1500, writeBoundMs: 8000 } });
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: true });
  await raw.sendText(JSON.stringify({ kind: "subscribe", what: "home" }));
  await until(() => raw.texts().some((s) => s.includes('"snapshot"')));
  raw.pause();
  t.server.workspace.emit({
    name: "fatal_error",
    fields: { error: "config_invalid", message: "x".repeat(3_500_000) },
  });
  // Read the frame slowly: a little at a time, longer than the keepalive's whole window.
  const until3 = performance.now() + 2500;
  while (performance.now() < until3) {
    raw.resume();
    await new Promise((r) => setTimeout(r, 5));
    raw.pause();
    await new Promise((r) => setTimeout(r, 120));
  }
  raw.resume();
  await until(() => raw.texts().some((s) => s.includes("fatal_error")), 10_000, "the big frame");
  assertEquals(t.server.connections(), 1);
  raw.close();
});

// spec: "One frame write is bounded too": a peer that stopped reading is torn down;
// torn down means the TCP socket is released (its fd and buffers), not a close frame queued
// behind megabytes the peer will never read. (How soon after the bound fires is
// `tools/deno.sh task bench lifecycle`'s figure.)
Deno.test("a peer that stops reading is ended by the write bound and its socket released", async () => {
  const writeBoundMs = 800;
  await using t = await testServer(null, {
    timers: { writeBoundMs, sampleMs: 50, pingDeadMs: 60_000 },
  });
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: true });
  await raw.sendText(JSON.stringify({ kind: "subscribe", what: "home" }));
  await until(() => raw.texts().some((s) => s.includes('"snapshot"')));
  raw.pause();
  for (let i = 0; i < 12; i++) {
    t.server.workspace.emit({
      name: "fatal_error",
      fields: { error: "config_invalid", message: String(i).repeat(3_500_000) },
    });
  }
  const ended = () =>
    t.log.records.some((r) =>
      r.event === "connection_ended" &&
      (r as unknown as { reason: string }).reason === "write_bound"
    );
  await until(() => serverSide(t.server.addr.port, raw.localPort) === "held", 5_000, "backlog");
  await until(ended, 15_000, "the write bound");
  // The peer still has not read a byte: only the server's reset can free the socket.
  await until(
    () => serverSide(t.server.addr.port, raw.localPort) === "released",
    15_000,
    "the server's socket to be released",
  );
  await until(() => t.server.connections() === 0);
  raw.close();
});

/**
 * The server's end of one loopback connection as /proc/self/net/tcp shows it: "held" while a
 * process holds its fd (a non-zero inode), "released" once no fd does (the row is gone, or the
 * kernel keeps an orphan with inode 0).
 */
function serverSide(serverPort: number, clientPort: number): "held" | "released" {
  const hex = (p: number) => `:${p.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const table of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    const rows = Deno.readTextFileSync(table).split("\n").slice(1).map((l) =>
      l.trim().split(/\s+/)
    );
    const row = rows.find((r) =>
      r.length > 9 && r[1].endsWith(hex(serverPort)) && r[2].endsWith(hex(clientPort))
    );
    if (row) return row[9] === "0" ? "released" : "held";
  }
  return "released";
}
