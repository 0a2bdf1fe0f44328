import { assert, assertEquals, assertMatch } from "./assert.ts";
import { testServer } from "./harness.ts";
import { MAX_INBOUND_DEPTH } from "../server/frame_guard.ts";

// DESIGN §4 "Errors": a refusal is a sentence in the core's own words naming the field; an
// engine message ("Cannot convert object to primitive value", "Maximum call stack size
// exceeded") never crosses the wire. issue 12 §2.
Deno.test("hostile kinds and commands are refused by name, in the core's words", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  const nest = (n: number) => "[".repeat(n) + "]".repeat(n);
  c.socket.send(`{"kind":{"toString":1}}`);
  let e = await c.next();
  assertEquals([e.kind, e.what], ["error", "client_message"]);
  assertEquals(e.why, "`kind` must be a string naming the message, not an object");
  c.socket.send(`{"kind":${nest(10_000)}}`);
  e = await c.next();
  assertEquals([e.what, e.why], [
    "client_message",
    `\`kind\` nests deeper than ${MAX_INBOUND_DEPTH} levels, the inbound bound`,
  ]);
  c.socket.send(`{"kind":"command","command":${nest(10_000)}}`);
  e = await c.next();
  assertEquals([e.what, e.why], [
    "command",
    `\`command\` nests deeper than ${MAX_INBOUND_DEPTH} levels, the inbound bound`,
  ]);
  c.send({ kind: "ping" });
  assertEquals(await c.next(), { kind: "pong" }, "the connection stays open");
  assert(
    t.log.records.some((r) => r.event === "client_message_refused"),
    "a refused client message leaves a log record",
  );
});

// spec: Subjects ("there are six"). issue 12 §11: an unknown subject is answered with the list.
Deno.test("subscribe to an unknown subject lists the subjects there are", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "nowhere" });
  const e = await c.next();
  assertEquals(e.what, "subscribe");
  assertMatch(
    String(e.why),
    /no subject `nowhere`; the subjects are home, board, usage, dictate_models, extensions and \{"session"/,
  );
});

// issue 12 §3: a frame nested past the bound is refused before it is built, and the one JS
// thread keeps answering everyone else meanwhile (before the fix: 3.3 s for 4 M levels).
Deno.test("a deeply nested frame is refused without stalling other connections", async () => {
  await using t = await testServer(null);
  const attacker = await t.ready();
  const bystander = await t.ready();
  const levels = 4_000_000;
  const deep = `{"kind":"ping","x":${"[".repeat(levels)}${"]".repeat(levels)}}`;
  let stop = false;
  const gaps: number[] = [];
  const pinging = (async () => {
    while (!stop) {
      const sent = performance.now();
      bystander.send({ kind: "ping" });
      await bystander.next((m) => m.kind === "pong");
      gaps.push(performance.now() - sent);
    }
  })();
  while (gaps.length < 3) await new Promise((r) => setTimeout(r, 5));
  for (let i = 0; i < 3; i++) {
    attacker.socket.send(deep);
    const e = await attacker.next((m) => m.kind === "error", 30_000);
    assertEquals(e.why, `\`x\` nests deeper than ${MAX_INBOUND_DEPTH} levels, the inbound bound`);
  }
  stop = true;
  await pinging;
  gaps.sort((a, b) => a - b);
  const worst = gaps[gaps.length - 1];
  console.log(
    `pongs ${gaps.length}, median ${gaps[gaps.length >> 1].toFixed(1)} ms, worst ${
      worst.toFixed(1)
    } ms`,
  );
  assert(worst < 50, `a bystander's pong took ${worst.toFixed(1)} ms`);
});

// issue 12 §11: the log records shutdown, with the connections it ended.
Deno.test("shutdown leaves a log record", async () => {
  await using t = await testServer(null);
  await t.ready();
  await t.server.stop();
  const events = t.log.records.map((r) => r.event);
  const shutdown = t.log.records.find((r) => r.event === "server_shutdown") as unknown as {
    connections: number;
  };
  assertEquals(shutdown.connections, 1);
  assert(events.indexOf("server_stopped") > events.indexOf("server_shutdown"));
});
