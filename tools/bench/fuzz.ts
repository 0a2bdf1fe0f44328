import { forgeArgs, listening } from "./arms/seat_fixtures.ts";
import { COMMANDS } from "../../protocol/command.ts";
import { ClientMessage } from "../../protocol/client.ts";
import { SERVER_V8_FLAGS } from "../permissions.ts";
import { numberFlag, stringFlag } from "./support/flags.ts";

/**
 * What fuzzed traffic leaves behind in the server's memory. Each arm boots a server
 * as its own process, opens 8 connections, sends `--messages` fuzzed messages (hostile and
 * malformed messages of every kind, the same seeded sequence in every arm) spread over them in
 * paced batches (a ping closes each batch, and its pong proves the batch was handled), closes the
 * connections and lets the server idle. It prints the server's RSS (VmRSS of /proc/<pid>/status)
 * at boot, after the traffic and after the idle. The arms alternate: `forge` (main.ts on a temp
 * config with one project, under the launcher's V8 flags) and its baseline `bare` (a bare
 * Deno.serve WebSocket that answers every message with one small frame; `--baseline bare_ws` the
 * same on node:http and ws, forge's transport), so what forge itself keeps is the difference. `--v8-flags X` replaces forge's V8 flags (`--v8-flags none` runs it
 * with Deno's defaults, the arm the fix is measured against).
 *
 *   tools/deno.sh run -A tools/bench/fuzz.ts [--messages 100000] [--rounds 2] [--idle-ms 5000]
 *     [--batch 250] [--baseline bare|bare_ws] [--v8-flags none|FLAGS]
 */
const MESSAGES = numberFlag("--messages", 100_000);
const ROUNDS = numberFlag("--rounds", 2);
const IDLE_MS = numberFlag("--idle-ms", 5_000);
const V8_FLAGS = stringFlag("--v8-flags", SERVER_V8_FLAGS);
type Arm = "forge" | "bare" | "bare_ws";
/** `--baseline bare_ws` compares against the same bare server on node:http + ws, forge's transport. */
const BASELINE: Arm = stringFlag("--baseline", "bare") === "bare_ws" ? "bare_ws" : "bare";
const CONNECTIONS = 8;
/** Messages sent before each pacing ping; `--batch 12500` floods each connection's whole share. */
const BATCH = numberFlag("--batch", 250);
const REPO = new URL("../..", import.meta.url).pathname;

const CONFIG = `
[[accounts]]
display_name = "Fuzz"
provider = "anthropic"
token = "sk-fuzz"

[[orgs]]
name = "Acme"
accounts = ["Fuzz"]

[[orgs.projects]]
name = "proj"
path = "@DIR@/proj"
`;

/** A seeded PRNG, so every round sends the same traffic. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const KINDS = ClientMessage.options.map((o) => o.shape.kind.value as string);
const COMMAND_NAMES = Object.keys(COMMANDS);

/** One hostile message: a known kind with wrong, random or hostile fields, or garbage. */
function fuzzMessage(r: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const str = () => {
    const n = Math.floor(r() * 40);
    return Array.from({ length: n }, () => String.fromCharCode(32 + Math.floor(r() * 0x2fff)))
      .join("");
  };
  const slot = () => ({ org: pick(["Acme", str()]), project: pick(["proj", str()]), label: str() });
  const value = (depth: number): unknown => {
    const k = Math.floor(r() * (depth > 4 ? 5 : 8));
    if (k === 0) return str();
    if (k === 1) return Math.floor(r() * 2 ** 40) * (r() < 0.5 ? -1 : 1);
    if (k === 2) return r() < 0.5;
    if (k === 3) return null;
    if (k === 4) return slot();
    if (k === 5) return Array.from({ length: Math.floor(r() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = 0; i < Math.floor(r() * 4); i++) {
      o[pick(["key", "seat", "what", str()])] = value(depth + 1);
    }
    return o;
  };
  const shape = Math.floor(r() * 10);
  if (shape === 0) return str(); // not JSON
  if (shape === 1) return `{"kind":${"[".repeat(70 + Math.floor(r() * 500))}`;
  if (shape === 2) return JSON.stringify({ kind: value(0) });
  const kind = pick(KINDS);
  const msg: Record<string, unknown> = { kind };
  for (const field of ["seat", "session", "conversation", "what", "id", "tab", "turns", "before"]) {
    if (r() < 0.4) msg[field] = value(1);
  }
  if (kind === "subscribe" || kind === "unsubscribe") {
    msg.what = pick(["home", "board", "usage", str(), { session: slot() }]);
  }
  if (kind === "command") {
    const name = pick(COMMAND_NAMES);
    msg.command = r() < 0.2 ? name : { [name]: r() < 0.5 ? { key: slot() } : value(1) };
    msg.reply_to = r() < 0.5 ? Math.floor(r() * 1000) : null;
  }
  return JSON.stringify(msg);
}

async function rssKiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

/** The baseline: a bare Deno.serve WebSocket answering each message with one small frame. */
const BARE_WS = `
import { createServer } from "node:http";
import { WebSocketServer } from "npm:ws@8.23.1";
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
const server = createServer((_req, res) => res.writeHead(404).end());
server.on("upgrade", (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => {
  ws.on("message", (d, bin) => ws.send(!bin && String(d) === '{"kind":"ping"}' ? '{"kind":"pong"}'
    : '{"kind":"error","what":"client_message","why":"refused","seat":null,"dispatch_id":null}'));
}));
server.listen(0, "127.0.0.1", () => console.log("LISTENING 127.0.0.1:" + server.address().port));
`;

const BARE = `
Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: (a) => console.log("LISTENING 127.0.0.1:" + a.port) }, (req) => {
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.onmessage = (e) => socket.send(e.data === '{"kind":"ping"}' ? '{"kind":"pong"}'
    : '{"kind":"error","what":"client_message","why":"refused","seat":null,"dispatch_id":null}');
  return response;
});
`;

async function boot(arm: Arm, dir: string): Promise<{ child: Deno.ChildProcess; port: number }> {
  await Deno.mkdir(`${dir}/proj`, { recursive: true });
  await Deno.writeTextFile(`${dir}/forge.toml`, CONFIG.replaceAll("@DIR@", dir));
  const child = new Deno.Command(Deno.execPath(), {
    cwd: REPO,
    args: arm === "bare"
      ? ["eval", BARE]
      : arm === "bare_ws"
      ? ["eval", BARE_WS]
      : forgeArgs(`${dir}/forge.toml`, { v8: V8_FLAGS === "none" ? null : V8_FLAGS }),
    stdout: "piped",
    stderr: "null",
  }).spawn();
  return { child, port: await listening(child.stdout) };
}

/** One connection's share: batches of messages, each closed by a ping whose pong is awaited. */
async function drive(port: number, messages: string[]): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/socket`);
  let pongs = 0;
  let wake: (() => void) | null = null;
  ws.onmessage = (e) => {
    if (typeof e.data === "string" && e.data === '{"kind":"pong"}') {
      pongs++;
      wake?.();
    }
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let expected = 0;
  for (let i = 0; i < messages.length; i += BATCH) {
    for (const m of messages.slice(i, i + BATCH)) ws.send(m);
    ws.send('{"kind":"ping"}');
    expected++;
    while (pongs < expected) await new Promise<void>((r) => (wake = r));
  }
  const closed = new Promise((r) => (ws.onclose = r));
  ws.close();
  await closed;
}

async function run(name: Arm, round: number) {
  const dir = await Deno.makeTempDir({ prefix: "forge-fuzz-" });
  const { child, port } = await boot(name, dir);
  try {
    const r = rng(1234 + round);
    const all = Array.from(
      { length: MESSAGES },
      () => fuzzMessage(r),
    );
    await new Promise((res) => setTimeout(res, 500));
    const boot = await rssKiB(child.pid);
    const started = performance.now();
    await Promise.all(
      Array.from(
        { length: CONNECTIONS },
        (_, c) => drive(port, all.filter((_, i) => i % CONNECTIONS === c)),
      ),
    );
    const took = performance.now() - started;
    const after = await rssKiB(child.pid);
    await new Promise((res) => setTimeout(res, IDLE_MS));
    const idle = await rssKiB(child.pid);
    const mib = (k: number) => (k / 1024).toFixed(1);
    console.log(
      `${name.padEnd(5)} round ${round}: ${MESSAGES} messages over ${CONNECTIONS} connections in ` +
        `${(took / 1000).toFixed(1)} s; RSS boot ${mib(boot)} MiB, after ${mib(after)} MiB, ` +
        `idle ${mib(idle)} MiB (idle - boot = +${mib(idle - boot)} MiB)`,
    );
    return idle - boot;
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

const deltas: Record<string, number[]> = { forge: [], [BASELINE]: [] };
for (let round = 0; round < ROUNDS; round++) {
  const arms: Arm[] = round % 2 === 0 ? ["forge", BASELINE] : [BASELINE, "forge"];
  for (const name of arms) {
    deltas[name].push(await run(name, round));
  }
}
for (const [name, ds] of Object.entries(deltas)) {
  const sorted = [...ds].sort((a, b) => a - b);
  const mib = (k: number) => (k / 1024).toFixed(1);
  console.log(
    `${name}: idle RSS above boot, median +${mib(sorted[sorted.length >> 1])} MiB ` +
      `(range +${mib(sorted[0])} .. +${mib(sorted[sorted.length - 1])} MiB, ${ds.length} runs)`,
  );
}
