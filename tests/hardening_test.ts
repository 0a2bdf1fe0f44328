import { assert, assertEquals, assertMatch, assertRejects } from "./assert.ts";
import { testServer, until } from "./harness.ts";
import { MAX_INBOUND_DEPTH } from "../server/frame_guard.ts";
import { REFUSALS_LOGGED } from "../server/dispatch.ts";
import { INBOUND_QUEUE, startServer } from "../server/server.ts";
import { memoryLogger } from "../server/log.ts";
import { TEMP_SUFFIX } from "../server/state/keeper.ts";
import { DEFAULT_TIMERS } from "../server/timers.ts";

// spec: What a client receives > error. A refusal is a sentence in the core's own words naming
// the field; an engine message ("Cannot convert object to primitive value", "Maximum call stack
// size exceeded") never crosses the wire.
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

// spec: Subjects ("there are six"): an unknown subject is answered with the list.
Deno.test("subscribe to an unknown subject lists the subjects there are", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.sendUntyped({ kind: "subscribe", what: "nowhere" });
  const e = await c.next();
  assertEquals(e.what, "subscribe");
  assertMatch(
    String(e.why),
    /no subject `nowhere`; the subjects are home, board, usage, dictate_models, extensions and \{"session"/,
  );
});

// A frame nested past the bound is refused before it is built, in the server's words naming the
// bound (not an engine's stack overflow), and a bystander on the same server is answered
// throughout: each of its pings, sent while the attacks go on, gets its pong, and its connection
// lives on after them. The attacker is its own process, so building its frames does not share
// the server's thread. What a refusal costs the server's thread, and how long the bystander
// waits meanwhile, are `tools/deno.sh task bench deep_frame`'s figures.
Deno.test("a deeply nested frame is refused without stalling other connections", async () => {
  await using t = await testServer(null);
  const bystander = await t.ready();
  const attacker = new Deno.Command(Deno.execPath(), {
    args: ["eval", ATTACKER, t.server.url],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = attacker.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("ready\n")) out += (await lines.read()).value ?? "";
  let stop = false;
  let pings = 0;
  let pongs = 0;
  const pinging = (async () => {
    while (!stop) {
      pings++;
      bystander.send({ kind: "ping" });
      await bystander.next((m) => m.kind === "pong");
      pongs++;
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const go = attacker.stdin.getWriter();
  await go.write(new TextEncoder().encode("go\n"));
  await go.close();
  for (let r = await lines.read(); !r.done; r = await lines.read()) out += r.value;
  stop = true;
  await pinging;
  await attacker.status;
  const answers = out.trim().split("\n").slice(1);
  const why = `\`x\` nests deeper than ${MAX_INBOUND_DEPTH} levels, the inbound bound`;
  assertEquals(answers, Array(ATTACKS).fill(why));
  assert(pings > 0 && pongs === pings, `${pongs} pongs for ${pings} pings`);
  bystander.send({ kind: "ping" });
  assertEquals((await bystander.next((m) => m.kind === "pong")).kind, "pong");
});

const ATTACKS = 5;
/** Builds a 1 M-level (2 MB) frame, says ready, waits for "go", sends it ATTACKS times. */
const ATTACKER = `
const ws = new WebSocket(Deno.args[0]);
await new Promise((r) => (ws.onopen = r));
const levels = 1_000_000;
const deep = '{"kind":"ping","x":' + "[".repeat(levels) + "]".repeat(levels) + "}";
const errors = [];
let wake = null;
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.kind === "error") { errors.push(m.why); wake?.(); }
};
console.log("ready");
await Deno.stdin.readable.pipeTo(new WritableStream());
for (let i = 0; i < ${ATTACKS}; i++) {
  ws.send(deep);
  while (errors.length <= i) await new Promise((r) => (wake = r));
  console.log(errors[i]);
}
ws.close();
`;

// The log records shutdown, with the connections it ended.
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

// Ctrl-C reaches the launcher and the server both: the second signal's stop must wait for the
// shutdown the first began (main.ts exits once stop answers).
Deno.test("a second stop answers only once the one shutdown has ended", async () => {
  await using t = await testServer(null);
  await t.ready();
  const first = t.server.stop();
  await t.server.stop();
  const events = t.log.records.map((r) => r.event);
  assert(events.includes("server_stopped"), "the second stop answered before the shutdown ended");
  assertEquals(events.filter((e) => e === "server_shutdown").length, 1);
  await first;
});

// A second forge over the same config would end the first's seats as a dead run's orphans and
// sweep the temp files of its writes in flight: it is refused at boot, before it touches a thing.
Deno.test("a second forge over the same config is refused at boot and sweeps nothing", async () => {
  await using t = await testServer(null);
  await t.ready();
  const inFlight = `${t.dir}/state/a-write${TEMP_SUFFIX}`;
  await Deno.writeTextFile(inFlight, "{}");
  const start = () =>
    startServer({
      configPath: t.configPath,
      port: 0,
      gatewayPort: 0,
      log: memoryLogger(),
      timers: DEFAULT_TIMERS,
      statusSchedule: () => ({ stop: () => {} }),
      latestSchedule: () => ({ stop: () => {} }),
    });
  await assertRejects(
    start,
    new RegExp(
      `^forge could not start while taking its state dir \\(the state phase\\): another forge ` +
        `\\(pid ${Deno.pid}\\) runs over `,
    ),
  );
  assertEquals(await Deno.readTextFile(inFlight), "{}");
  await Deno.remove(inFlight);
  // Once the first has stopped, the config is free.
  await t.server.stop();
  const next = await start();
  await next.stop();
});

Deno.test("a socket port another server holds is refused in forge's words, with the way out", async () => {
  await using t = await testServer(null);
  const dir = await Deno.makeTempDir({ prefix: "forge-port-" });
  try {
    const port = t.server.addr.port;
    await assertRejects(
      () =>
        startServer({
          configPath: `${dir}/forge.toml`,
          port,
          gatewayPort: 0,
          log: memoryLogger(),
          timers: DEFAULT_TIMERS,
          statusSchedule: () => ({ stop: () => {} }),
          latestSchedule: () => ({ stop: () => {} }),
        }),
      new RegExp(
        `^forge could not start while binding the socket's port \\(the listen phase\\): ` +
          `127\\.0\\.0\\.1:${port} is taken \\(another forge\\?\\): start with --port N`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Refusals are logged, but a flood of them cannot roll the log: the first
// REFUSALS_LOGGED per connection are recorded one by one and the end record counts them all.
Deno.test("a flood of refused messages logs the first few and counts the rest", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  for (let i = 0; i < 200; i++) c.socket.send("{nope");
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
  await c.close();
  await until(() => t.log.records.some((r) => r.event === "connection_ended"));
  const refused = t.log.records.filter((r) => r.event === "client_message_refused");
  assertEquals(refused.length, REFUSALS_LOGGED);
  const ended = t.log.records.find((r) => r.event === "connection_ended") as unknown as {
    refused: number;
  };
  assertEquals(ended.refused, 200);
});

// A client that sends faster than its messages are handled is held back by TCP
// once its queue is full (the queue is bounded), and every message is still answered, in order.
Deno.test("a flooding client is held back at the inbound bound and loses nothing", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  const n = INBOUND_QUEUE.messages * 8;
  for (let i = 0; i < n; i++) c.send({ kind: "ping" });
  for (let i = 0; i < n; i++) await c.next((m) => m.kind === "pong");
  assert(
    t.log.records.some((r) => r.event === "inbound_paused"),
    "the socket stopped being read at the bound",
  );
  c.send({ kind: "ping" });
  assertEquals(await c.next(), { kind: "pong" }, "and reading resumed");
});
