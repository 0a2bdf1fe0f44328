import { assert, assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";

// spec: The greeting; The effective config ("A settings frame follows the greeting in the same open").
Deno.test("a connection opens with the greeting, then the settings document", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.connect();
  const greeting = await c.next();
  assertEquals(greeting.kind, "greeting");
  assertEquals(greeting.version, 29);
  assertMatch(String(greeting.forge_version), /^\d+\.\d+\.\d+ · \S+$/);
  assertMatch(String(greeting.forge_version_short), /^\d+\.\d+\.\d+\+\S+$/);
  assertEquals(greeting.settings, {
    mark: null,
    theme: null,
    font: null,
    dictate: { styling: "semi_formal", structure: "prose", context: "general" },
  });
  const settings = await c.next();
  assertEquals(settings.kind, "settings");
  const doc = settings.document as Record<string, unknown>;
  assertMatch(String(doc.fingerprint), /^[0-9a-f]{16}$/);
  assertEquals(doc.source, t.configPath);
});

// spec: Reaching it (the socket is at /socket; anything else is not it).
Deno.test("every path but /socket is 404", async () => {
  await using t = await testServer(null);
  const res = await fetch(`http://127.0.0.1:${t.server.addr.port}/`);
  assertEquals(res.status, 404);
  await res.body?.cancel();
  const other = await fetch(`http://127.0.0.1:${t.server.addr.port}/socketx`);
  assertEquals(other.status, 404);
  await other.body?.cancel();
});

// spec: What a client sends > ping; What a client receives > pong.
Deno.test("ping is answered with pong", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.send({ kind: "ping" });
  assertEquals(await c.next(), { kind: "pong" });
});

// Anything a handler throws becomes one error frame and the connection stays open.
Deno.test("malformed input is answered with an error naming what was wrong, and the connection stays", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.socket.send("{not json");
  let e = await c.next();
  assertEquals([e.kind, e.what, e.seat, e.dispatch_id], ["error", "client_message", null, null]);
  assertMatch(String(e.why), /^not JSON/);
  c.sendUntyped({ kind: "frobnicate" });
  e = await c.next();
  assertEquals([e.what, e.why], ["client_message", "unknown kind `frobnicate`"]);
  c.sendUntyped({ kind: "subscribe", what: "nowhere" });
  e = await c.next();
  assertEquals(e.what, "subscribe");
  assertMatch(String(e.why), /^subscribe: there is no subject `nowhere`/);
  c.sendUntyped({ kind: "showing", seat: { org: "a", project: "b" } });
  e = await c.next();
  assertEquals(e.what, "showing");
  assertMatch(String(e.why), /seat\.label/);
  c.send({ kind: "ping" });
  assertEquals((await c.next()).kind, "pong");
});

// The 16 MiB inbound bound (spec: What a client sends > browser_file_answer names it).
Deno.test("an inbound frame over 16 MiB is refused by name and the connection stays", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.socket.send(
    JSON.stringify({ kind: "client_perf", records: ["x".repeat(16 * 1024 * 1024 + 10)] }),
  );
  const e = await c.next();
  assertEquals(e.what, "client_message");
  assertMatch(String(e.why), /over the 16 MiB inbound bound/);
  c.send({ kind: "ping" });
  assertEquals((await c.next()).kind, "pong");
});

// spec: Binary messages: a kind from the wrong direction, a short header or an unknown kind is
// dropped with a debug record and no answer.
Deno.test("refused binary frames get no answer and a debug record", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.sendBinary(new Uint8Array([1, 0, 0, 0])); // a browser frame: the server's alone
  c.sendBinary(new Uint8Array([9, 1, 2])); // unknown kind
  c.sendBinary(new Uint8Array([5, 1])); // terminal input with a short header
  c.sendBinary(new Uint8Array([]));
  c.send({ kind: "ping" });
  assertEquals(await c.next(), { kind: "pong" }, "nothing may answer a binary frame");
  const reasons = t.log.records.filter((r) => r.event === "binary_frame_refused").map((r) =>
    (r as unknown as { reason: string }).reason
  );
  assertEquals(reasons, ["wrong_direction", "unknown_kind", "short_header", "empty"]);
});

// spec: client_perf: written to forge-perf-web.log beside forge.log; nothing answers the batch.
Deno.test("client_perf records land in forge-perf-web.log and nothing answers", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.send({ kind: "client_perf", records: [{ name: "paint", ms: 12 }, { name: "fold", ms: 3 }] });
  c.send({ kind: "ping" });
  assertEquals(await c.next(), { kind: "pong" });
  const lines = (await Deno.readTextFile(`${t.dir}/forge-perf-web.log`)).trim().split("\n");
  assertEquals(lines.map((l) => JSON.parse(l)), [{ name: "paint", ms: 12 }, {
    name: "fold",
    ms: 3,
  }]);
});

// spec: client_perf gives the records no fields; forge asks each to be an object naming what it
// measured, and refuses a batch that is not, naming the record, writing nothing.
Deno.test("client_perf: a record that names nothing is refused by name and nothing is written", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.sendUntyped({ kind: "client_perf", records: [{ name: "paint", ms: 12 }, { ms: 3 }] });
  const e = await c.next();
  assertEquals([e.what, e.why], [
    "client_perf",
    "client_perf: records.1.name: missing (expected a string)",
  ]);
  c.sendUntyped({ kind: "client_perf", records: ["paint 12ms"] });
  assertMatch(
    String((await c.next()).why),
    /^client_perf: records\.0: expected an object, got a string/,
  );
  const log = await Deno.readTextFile(`${t.dir}/forge-perf-web.log`).catch(() => "");
  assertEquals(log, "");
});

// spec: home > boot_id: the server run's own identity, minted once per process.
Deno.test("each server run mints its own boot_id and home carries it", async () => {
  await using a = await testServer(SAMPLE_CONFIG);
  await using b = await testServer(SAMPLE_CONFIG);
  const ca = await a.ready();
  ca.send({ kind: "subscribe", what: "home" });
  const home = (await ca.next((m) => m.kind === "snapshot")).data as Record<string, unknown>;
  assertEquals(home.boot_id, a.server.workspace.bootId);
  assert(a.server.workspace.bootId !== b.server.workspace.bootId);
});
