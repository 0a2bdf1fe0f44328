/**
 * What a seat costs the server (issue 3 item 8), with the real `claude` CLI against the fake API:
 *
 * 1. CPU per request: forge runs as its own process (`deno run -A main.ts`, so its /proc walks
 *    run) holding one seat with a long real conversation built by real turns; the arm prices a
 *    `subscribe` of that seat and a `more` of the turns above the snapshot (from the window, in
 *    memory) in the process's own CPU time (/proc/<pid>/stat utime+stime, what ps reports)
 *    against an idle arm of the same length. Then forge restarts, the lead resumes its session
 *    seeded with its newest turns, and a `more` above them is priced again: read from the
 *    transcript on disk. Every arm prints the bytes and turns it moved.
 * 2. Latency from a CLI stdout line to a subscribed client, p50/p99, with 1, 10 and 50 clients:
 *    forge runs in this process with the driver's event queue stamped where each stdout line is
 *    parsed; the clients run in a worker thread (the machine's other core) and stamp each frame
 *    they parse. Frames the batch holds (token appends) are reported apart from the rest.
 *
 *   tools/deno.sh run -A tools/bench/fold_cost.ts [--turns 40] [--requests 30] [--latency-turns 4]
 */
import { parseArgs } from "node:util";
import { startFakeApi } from "../../fixtures/fake_api/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import { sessionSnapshot } from "../../server/areas/session.ts";
import { type RunningServer, startServer } from "../../server/server.ts";
import type { Seat } from "../../server/workspace/seats/mod.ts";
import { FrameWindow } from "../../server/workspace/seats/window.ts";
import { EventQueue } from "../../server/workspace/claude/event_queue.ts";
import { ForgeClient } from "../client_lib.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const seat = { org: "Bench", project: "long", label: "lead" };

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    strict: false,
    options: {
      turns: { type: "string", default: "40" },
      requests: { type: "string", default: "30" },
      "latency-turns": { type: "string", default: "4" },
    },
  });
  const turns = Number(values.turns);
  const requests = Number(values.requests);
  const latencyTurns = Number(values["latency-turns"]);
  // A turn like a working session's: thinking, a Bash call (read-only: it runs unasked), then a
  // long answer; the latency turns stream a thinking block and text at a steady pace.
  const api = await startFakeApi(
    JSON.parse(await Deno.readTextFile(`${REPO}fixtures/seats/bench_script.json`)),
  );
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-fold-bench-" }));
  try {
    await Deno.mkdir(`${dir}/long`);
    const toml = await Deno.readTextFile(`${REPO}fixtures/seats/bench.toml`);
    await Deno.writeTextFile(
      `${dir}/forge.toml`,
      toml.replaceAll("@API@", api.url).replaceAll("@DIR@", dir),
    );
    console.log(
      `claude ${await cliVersion()}; ${Deno.build.os} ${navigator.hardwareConcurrency} cores`,
    );
    await cpuArms(dir, turns, requests);
    await latencyArms(dir, latencyTurns, turns);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
}

// ---- 1. CPU per request -------------------------------------------------------------------

async function cpuArms(dir: string, turns: number, requests: number) {
  const first = await startForge(dir);
  const { child, c } = first;
  try {
    c.send({ kind: "subscribe", what: { session: seat }, answering: true });
    await c.next((m) => m.kind === "snapshot");
    const t0 = performance.now();
    for (let i = 0; i < turns; i++) {
      c.send(prompt(`[[script:turn]] turn ${i}`));
      await c.next((m) => isChat(m, "result"), 60_000);
    }
    console.log(`built ${turns} real turns in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    c.send({ kind: "unsubscribe", what: { session: seat } });
    await settle(c);

    const idleRate = await idleArm(child.pid);
    let bytes = 0;
    let shownTurns = 0;
    let cursor: string | null = null;
    const sub = await cpuOver(child.pid, async () => {
      for (let i = 0; i < requests; i++) {
        c.send({ kind: "subscribe", what: { session: seat } });
        const snap = await c.next((m) => m.kind === "snapshot", 60_000);
        const conv = (snap.data as { conversation: { turns: unknown[]; cursor: string | null } })
          .conversation;
        bytes += JSON.stringify(snap).length;
        shownTurns = conv.turns.length;
        cursor = conv.cursor;
        c.send({ kind: "unsubscribe", what: { session: seat } });
      }
      await settle(c);
    });
    report("subscribe", sub.cpuMs - idleRate * sub.wallMs, sub.wallMs, requests, bytes, shownTurns);
    // Above the window's floor: the turns above the snapshot, from memory.
    await moreArm("more (window)", child.pid, c, cursor, requests, idleRate);
  } finally {
    await first.stop();
  }
  // A restart: the lead resumes its session, seeded with its newest turns; the page above them
  // is read from the transcript on disk.
  const second = await startForge(dir);
  try {
    const c2 = second.c;
    c2.send({ kind: "subscribe", what: { session: seat } });
    let snap = await c2.next((m) => m.kind === "snapshot", 60_000);
    const header = (snap.data as { header: { available_models: unknown[] } }).header;
    if (header.available_models.length === 0) {
      await c2.next((m) => !!(m.update as { connected?: unknown } | undefined)?.connected, 60_000);
      c2.send({ kind: "subscribe", what: { session: seat } });
      snap = await c2.next((m) => m.kind === "snapshot", 60_000);
    }
    const conv = (snap.data as { conversation: { cursor: string | null } }).conversation;
    const idleRate = await idleArm(second.child.pid);
    await moreArm("more (disk)", second.child.pid, c2, conv.cursor, requests, idleRate);
  } finally {
    await second.stop();
  }
}

/** forge as its own process (`deno run -A main.ts`, so its /proc walks run), and a client. */
async function startForge(dir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${REPO}main.ts`, "--config", `${dir}/forge.toml`, "--port", "0"],
    cwd: REPO,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const port = await listening(child.stdout);
  const c = await ForgeClient.connect(`ws://127.0.0.1:${port}/socket`);
  await c.next((m) => m.kind === "settings");
  return {
    child,
    c,
    async stop() {
      await c.close().catch(() => {});
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** The process's own CPU rate while nothing is asked of it. */
async function idleArm(pid: number): Promise<number> {
  const idle = await cpuOver(pid, () => new Promise((r) => setTimeout(r, 3_000)));
  report("idle", idle.cpuMs, idle.wallMs, 0, 0, 0);
  return idle.cpuMs / idle.wallMs;
}

/** Prices `more` from one cursor, `requests` times. */
async function moreArm(
  arm: string,
  pid: number,
  c: ForgeClient,
  cursor: string | null,
  requests: number,
  idleRate: number,
) {
  c.send({ kind: "more", conversation: seat, before: cursor, turns: 20 });
  const probe = await c.next((m) => m.kind === "page" || m.kind === "error");
  if (probe.kind === "error") {
    console.log(`${arm}: refused (${probe.what}: ${probe.why})`);
    return;
  }
  let moreBytes = 0;
  let moreTurns = 0;
  let next: unknown = null;
  const more = await cpuOver(pid, async () => {
    for (let i = 0; i < requests; i++) {
      c.send({ kind: "more", conversation: seat, before: cursor, turns: 20 });
      const page = await c.next((m) => m.kind === "page" || m.kind === "error", 60_000);
      moreBytes += JSON.stringify(page).length;
      moreTurns = (page.turns as unknown[] | undefined)?.length ?? 0;
      next = page.cursor;
    }
  });
  report(arm, more.cpuMs - idleRate * more.wallMs, more.wallMs, requests, moreBytes, moreTurns);
  console.log(
    `  (from cursor ${String(cursor).slice(0, 2)}..., next ${String(next).slice(0, 2)}...)`,
  );
}

function report(
  arm: string,
  cpuMs: number,
  wallMs: number,
  n: number,
  bytes: number,
  turns: number,
) {
  const per = n > 0 ? `${(cpuMs / n).toFixed(2)} ms CPU per request (idle subtracted), ` : "";
  console.log(
    `${arm.padEnd(13)} ${per}${cpuMs.toFixed(0)} ms CPU over ${wallMs.toFixed(0)} ms wall; ` +
      `moved ${(bytes / 1024).toFixed(0)} KiB, ${turns} turns a request`,
  );
}

/** The server process's CPU (utime+stime) spent while `work` runs. */
async function cpuOver(pid: number, work: () => Promise<unknown>) {
  const before = cpuMs(pid);
  const t0 = performance.now();
  await work();
  return { cpuMs: cpuMs(pid) - before, wallMs: performance.now() - t0 };
}

function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
}

/** Lets the server finish what the last request started (a ping answers after it). */
async function settle(c: ForgeClient) {
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
}

// ---- 2. latency from a stdout line to the clients ----------------------------------------

/** When each CLI frame (by uuid) was parsed off stdout, stamped in the driver's queue, and the
 * order they came in (a folded frame of span n stands for the n appends read up to its uuid). */
const readAt = new Map<string, number>();
const readOrder: string[] = [];
const readIndex = new Map<string, number>();
const now = () => performance.timeOrigin + performance.now();

async function latencyArms(dir: string, turns: number, longTurns: number) {
  const push = EventQueue.prototype.push;
  EventQueue.prototype.push = function (item: unknown) {
    const frame = (item as { kind?: string; frame?: { uuid?: unknown } }).frame;
    if (typeof frame?.uuid === "string") {
      readAt.set(frame.uuid, now());
      readIndex.set(frame.uuid, readOrder.push(frame.uuid) - 1);
    }
    return push.call(this, item as never);
  };
  const server = await startServer({
    configPath: `${dir}/forge.toml`,
    port: 0,
    log: memoryLogger(),
  });
  const driver = await ForgeClient.connect(server.url);
  try {
    await driver.next((m) => m.kind === "settings");
    driver.send({ kind: "subscribe", what: { session: seat } });
    await driver.next((m) => m.kind === "snapshot");
    for (const clients of [1, 10, 50]) {
      const worker = new Worker(import.meta.url, { type: "module" });
      const reply = (kind: string) =>
        new Promise<{ kind: string; samples?: [string, number][] }>((resolve) => {
          worker.onmessage = (e) => e.data.kind === kind && resolve(e.data);
        });
      const ready = reply("ready");
      worker.postMessage({ kind: "connect", url: server.url, clients, seat });
      await ready;
      readAt.clear();
      readOrder.length = 0;
      readIndex.clear();
      for (let i = 0; i < turns; i++) {
        driver.send(prompt(`[[script:stream]] latency ${i}`));
        await driver.next((m) => isChat(m, "result"), 60_000);
      }
      await settle(driver);
      const done = reply("samples");
      worker.postMessage({ kind: "report" });
      const { samples } = await done;
      worker.terminate();
      const plain: number[] = [];
      const fromLast: number[] = [];
      const fromFirst: number[] = [];
      for (const [uuid, at, span] of samples! as unknown as [string, number, number][]) {
        const read = readAt.get(uuid);
        if (read === undefined) continue;
        if (span === 1) {
          plain.push(at - read);
          continue;
        }
        fromLast.push(at - read);
        const first = readOrder[readIndex.get(uuid)! - (span - 1)];
        fromFirst.push(at - readAt.get(first)!);
      }
      console.log(
        `latency ${String(clients).padStart(2)} client(s): single frames ${q(plain)}\n` +
          `   folded runs of token appends: from the run's last line ${q(fromLast)}, ` +
          `from its first ${q(fromFirst)}`,
      );
    }
    await breakdown(server, driver, longTurns);
  } finally {
    EventQueue.prototype.push = push;
    await driver.close();
    await server.stop();
  }
}

/** Where a subscribe's server time goes, in this process: the seat's page built cold (a fresh
 * window holding the same frames) and warm (the cached page), the other subsystems' fields, and
 * encoding the whole snapshot. */
async function breakdown(server: RunningServer, driver: ForgeClient, turns: number) {
  for (let i = 0; i < turns; i++) {
    driver.send(prompt(`[[script:turn]] again ${i}`));
    await driver.next((m) => isChat(m, "result"), 60_000);
  }
  const held = server.workspace.seat(seat) as Seat;
  const N = 20;
  const copies = Array.from({ length: N }, () => {
    const w = new FrameWindow();
    for (const e of held.window.entries()) if (e.seq !== null) w.push(e.seq, e.update, e.bytes);
    return w;
  });
  const time = async (fn: (i: number) => unknown) => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await fn(i);
    return ((performance.now() - t0) / N).toFixed(2);
  };
  const cold = await time((i) => copies[i].page(null));
  const warm = await time(() => held.sessionFields());
  const others = await time(() => server.registry.sessionFields(seat, { review: false }));
  const snapshot = await sessionSnapshot(
    { workspace: server.workspace } as unknown as Parameters<typeof sessionSnapshot>[0],
    server.registry,
    seat,
    { review: false },
  );
  const encode = await time(() => JSON.stringify({ kind: "snapshot", data: snapshot }));
  console.log(
    `subscribe, in process (${held.window.entries().length} frames held, ` +
      `${
        (JSON.stringify(snapshot).length / 1024).toFixed(0)
      } KiB snapshot): page cold ${cold} ms, ` +
      `seat fields warm ${warm} ms, other subsystems' fields ${others} ms, encode ${encode} ms`,
  );
}

function q(xs: number[]): string {
  if (xs.length === 0) return "none";
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (n=${s.length})`;
}

/** The worker: N clients subscribed to the seat, stamping every chat frame they parse. */
function clientWorker() {
  const scope = globalThis as unknown as {
    onmessage: (e: MessageEvent) => void;
    postMessage: (m: unknown) => void;
  };
  const sockets: WebSocket[] = [];
  const samples: [string, number, number][] = [];
  scope.onmessage = async (e: MessageEvent) => {
    if (e.data.kind === "connect") {
      const { url, clients, seat } = e.data;
      await Promise.all(Array.from({ length: clients }, () =>
        new Promise<void>((resolve) => {
          const ws = new WebSocket(url);
          sockets.push(ws);
          ws.onmessage = (m) => {
            const at = now();
            const data = JSON.parse(m.data as string);
            if (data.kind === "settings") {
              ws.send(JSON.stringify({ kind: "subscribe", what: { session: seat } }));
            }
            if (data.kind === "snapshot") resolve();
            const msg = data.update?.chat_appended?.msg;
            if (msg && typeof msg.uuid === "string") {
              samples.push([msg.uuid, at, data.span]);
            }
          };
        })));
      scope.postMessage({ kind: "ready" });
    } else if (e.data.kind === "report") {
      for (const ws of sockets) ws.close();
      scope.postMessage({ kind: "samples", samples });
    }
  };
}

// ---- fixtures ---------------------------------------------------------------------------

function isChat(m: Record<string, unknown>, type: string): boolean {
  const u = m.update as { chat_appended?: { msg?: { type?: string } } } | undefined;
  return u?.chat_appended?.msg?.type === type;
}

function prompt(text: string) {
  return { kind: "command", command: { prompt: { key: seat, text, attachments: [] } } };
}

async function listening(stdout: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`forge exited before listening: ${out}`);
    out += value;
    const m = /LISTENING \S+:(\d+)/.exec(out);
    if (m) {
      (async () => {
        while (!(await reader.read()).done) { /* drain */ }
      })();
      return Number(m[1]);
    }
  }
}

async function cliVersion(): Promise<string> {
  const bin = Deno.env.get("FORGE_CLAUDE_BIN") ?? "claude";
  const out = await new Deno.Command(bin, { args: ["--version"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

// Last, so every module-level binding above is initialised before either entry runs.
if ("WorkerGlobalScope" in globalThis) clientWorker();
else if (import.meta.main) await main();
