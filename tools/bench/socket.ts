import { memoryLogger } from "../../server/log.ts";
import { startServer } from "../../server/server.ts";
import { ForgeClient } from "../client_lib.ts";

/**
 * The socket's fan-out and big-frame costs, each beside a bare `Deno.serve` WebSocket broadcast
 * measured in the same run, printed as ratios (forge ÷ bare). Clients run in this process, so the
 * numbers include their parsing: the ratio is the honest part.
 *
 *   deno task bench socket [--clients 50] [--updates 2000] [--runs 7]
 */
const arg = (name: string, def: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : def;
};
const CLIENTS = arg("--clients", 50);
const UPDATES = arg("--updates", 2000);
const RUNS = arg("--runs", 7);
const BIG = 3_500_000;

interface Target {
  url: string;
  broadcast(message: string): void;
  stop(): Promise<void>;
}

async function forgeTarget(): Promise<Target> {
  const dir = await Deno.makeTempDir({ prefix: "forge-bench-" });
  const server = await startServer({
    configPath: `${dir}/forge.toml`,
    port: 0,
    log: memoryLogger(),
  });
  return {
    url: server.url,
    broadcast: (message) =>
      server.workspace.emit({ name: "service_status", fields: { severity: "minor", message } }),
    stop: async () => {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function bareTarget(): Promise<Target> {
  const sockets = new Set<WebSocket>();
  const ac = new AbortController();
  const listening = Promise.withResolvers<number>();
  const http = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    signal: ac.signal,
    onListen: (a) => listening.resolve(a.port),
  }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => {
      sockets.add(socket);
      socket.send(JSON.stringify({ kind: "greeting" }));
    };
    socket.onmessage = (e) => {
      if (String(e.data).includes('"subscribe"')) socket.send(JSON.stringify({ kind: "snapshot" }));
    };
    socket.onclose = () => sockets.delete(socket);
    return response;
  });
  const port = await listening.promise;
  return {
    url: `ws://127.0.0.1:${port}/socket`,
    broadcast: (message) => {
      const text = JSON.stringify({
        kind: "update",
        update: { service_status: { severity: "minor", message } },
        span: 1,
      });
      for (const s of sockets) s.send(text);
    },
    stop: async () => {
      for (const s of sockets) s.close();
      ac.abort();
      await http.finished;
    },
  };
}

async function subscribed(url: string, deflate = false): Promise<ForgeClient> {
  const c = await ForgeClient.connect(url, { deflate });
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot");
  return c;
}

function stamp(update: Record<string, unknown>): number | null {
  const u = update.update as { service_status?: { message: string } } | undefined;
  const m = u?.service_status?.message;
  return m && m.startsWith("t:")
    ? Number(m.slice(2, m.indexOf("|") > 0 ? m.indexOf("|") : undefined))
    : null;
}

async function fanout(make: () => Promise<Target>) {
  const target = await make();
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => subscribed(target.url)));
  const latencies: number[] = [];
  let received = 0;
  const done = Promise.withResolvers<void>();
  for (const c of clients) {
    c.socket.addEventListener("message", (e) => {
      const m = JSON.parse(String(e.data));
      const t = stamp(m);
      if (t === null) return;
      latencies.push(performance.now() - t);
      if (++received === CLIENTS * UPDATES) done.resolve();
    });
  }
  const started = performance.now();
  for (let i = 0; i < UPDATES; i++) {
    target.broadcast(`t:${performance.now()}`);
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 0));
  }
  await done.promise;
  const secs = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  await target.stop();
  latencies.sort((a, b) => a - b);
  return { rate: (CLIENTS * UPDATES) / secs, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

async function bigFrame(make: () => Promise<Target>, deflate: boolean) {
  const target = await make();
  const c = await subscribed(target.url, deflate);
  const times: number[] = [];
  const pad = "x".repeat(BIG);
  for (let i = 0; i < RUNS; i++) {
    const got = c.nextFrame((f) => f.type === "json" && stamp(f.data) !== null, 60_000);
    target.broadcast(`t:${performance.now()}|${pad}`);
    const f = await got;
    if (f.type === "json") times.push(performance.now() - (stamp(f.data) as number));
  }
  await c.close();
  await target.stop();
  times.sort((a, b) => a - b);
  return pct(times, 50);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const f = (n: number, d = 1) => n.toFixed(d);
const forgeFan = await fanout(forgeTarget);
const bareFan = await fanout(bareTarget);
console.log(`fan-out: ${CLIENTS} clients on home x ${UPDATES} updates`);
console.log(
  `  forge  ${f(forgeFan.rate, 0)} msg/s   p50 ${f(forgeFan.p50)} ms   p99 ${f(forgeFan.p99)} ms`,
);
console.log(
  `  bare   ${f(bareFan.rate, 0)} msg/s   p50 ${f(bareFan.p50)} ms   p99 ${f(bareFan.p99)} ms`,
);
console.log(
  `  ratio  throughput ${f(forgeFan.rate / bareFan.rate, 2)}x   p50 ${
    f(forgeFan.p50 / bareFan.p50, 2)
  }x   p99 ${f(forgeFan.p99 / bareFan.p99, 2)}x`,
);
const forgePlain = await bigFrame(forgeTarget, false);
const forgeGzip = await bigFrame(forgeTarget, true);
const barePlain = await bigFrame(bareTarget, false);
console.log(`one 3.5 MB frame, emit to parsed (median of ${RUNS})`);
console.log(`  forge text     ${f(forgePlain)} ms   (${f(forgePlain / barePlain, 2)}x bare)`);
console.log(`  forge deflate  ${f(forgeGzip)} ms   (${f(forgeGzip / barePlain, 2)}x bare)`);
console.log(`  bare text      ${f(barePlain)} ms`);

// Which gzip kind 3 uses, by measurement: the frame's JSON through each candidate.
const { gzip: zgzip } = await import("node:zlib");
const { promisify } = await import("node:util");
const { gzipSync: fflateGzip, strToU8 } = await import("fflate");
const gz = promisify(zgzip);
const sample = JSON.stringify({
  kind: "update",
  update: {
    chat_appended: {
      msg: Array.from({ length: 33_000 }, (_, i) => ({ i, text: `row ${i} of a conversation` })),
    },
  },
});
async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return pct(times.sort((a, b) => a - b), 50);
}
const zlibMs = await median(() => gz(sample));
const streamMs = await median(() =>
  new Response(new Blob([sample]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer()
);
const fflateMs = await median(() => Promise.resolve(fflateGzip(strToU8(sample))));
console.log(
  `gzip of a ${
    f(sample.length / 1e6, 2)
  } MB frame (median of ${RUNS}; kind 3 uses node:zlib async)`,
);
console.log(`  node:zlib async   ${f(zlibMs)} ms`);
console.log(`  CompressionStream ${f(streamMs)} ms`);
console.log(`  fflate gzipSync   ${f(fflateMs)} ms`);
