import { assert, assertEquals } from "./assert.ts";
import { testServer, until } from "./harness.ts";
import { RawSocket } from "./raw_socket.ts";

// The spec's clocks are 60 s; these tests shorten them through the documented override
// (FORGE_TEST_TIMERS / ServerOptions.timers) and check the behaviour, not the numbers.

// spec: Reaching it: "ends a connection whose ping has gone unanswered for 60".
Deno.test("a peer that never answers a ping is ended after the dead bound", async () => {
  await using t = await testServer(null, { timers: { pingDeadMs: 1000 } });
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: false });
  const started = performance.now();
  const why = await raw.closed();
  const took = performance.now() - started;
  assert(raw.pings >= 1, "the server pinged first");
  assert(why === "close 1001" || why === "eof", why);
  assert(took >= 1500 && took < 5000, `ended after ${took} ms`);
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
    name: "service_status",
    fields: { severity: "minor", message: "x".repeat(3_500_000) },
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
  await until(() => raw.texts().some((s) => s.includes("service_status")), 10_000, "the big frame");
  assertEquals(t.server.connections(), 1);
  raw.close();
});

// spec: "One frame write is bounded too": a peer that stopped reading is torn down.
Deno.test("a peer that stops reading is ended by the write bound", async () => {
  await using t = await testServer(null, {
    timers: { writeBoundMs: 800, sampleMs: 50, pingDeadMs: 60_000 },
  });
  const raw = await RawSocket.open(t.server.addr.port, { answerPings: true });
  await raw.sendText(JSON.stringify({ kind: "subscribe", what: "home" }));
  await until(() => raw.texts().some((s) => s.includes('"snapshot"')));
  raw.pause();
  for (let i = 0; i < 12; i++) {
    t.server.workspace.emit({
      name: "service_status",
      fields: { severity: "minor", message: String(i).repeat(3_500_000) },
    });
  }
  await until(
    () =>
      t.log.records.some((r) =>
        r.event === "connection_ended" &&
        (r as unknown as { reason: string }).reason === "write_bound"
      ),
    15_000,
    "the write bound",
  );
  await until(() => t.server.connections() === 0);
  raw.close();
});
