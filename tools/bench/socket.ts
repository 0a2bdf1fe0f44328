/**
 * The socket's fan-out and big-frame costs: forge beside a bare `Deno.serve` WebSocket broadcast
 * (the baseline) and a bare node:http + `ws` broadcast (the transport forge runs on), in
 * interleaved arms whose order turns each round (forge, bare, ws / ws, bare, forge, ...). The
 * clients live in Worker threads, so their parsing is not on the server's thread; latency runs
 * from the stamp taken when the server accepted the update to the client's parse. Each arm prints
 * what it moved, so an arm that stopped delivering cannot look fast.
 *
 *   deno task bench socket [--clients 50] [--updates 2000] [--rounds 5] [--workers 2] [--runs 5]
 */
import { type ArmName, target } from "./arms/socket_targets.ts";
import type { ClientsJob, ClientsReport } from "./arms/socket_clients.ts";

const arg = (name: string, def: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : def;
};
const CLIENTS = arg("--clients", 50);
const UPDATES = arg("--updates", 2000);
const ROUNDS = arg("--rounds", 5);
const WORKERS = arg("--workers", 2);
const RUNS = arg("--runs", 5);
const BIG = 3_500_000;
const armsArg = Deno.args.indexOf("--arms");
/** `--arms forge` runs one arm alone (for a profile); ratios print only when both are there. */
const ARMS =
  (armsArg >= 0 ? Deno.args[armsArg + 1].split(",") : ["forge", "bare", "bare_ws"]) as ArmName[];
const SKIP_BIG = Deno.args.includes("--no-big");
const now = () => performance.timeOrigin + performance.now();

/** Starts `n` clients in one Worker; resolves `ready` once all are subscribed. */
function clients(job: ClientsJob, onGot?: (ms: number) => void) {
  const w = new Worker(new URL("./arms/socket_clients.ts", import.meta.url), { type: "module" });
  const ready = Promise.withResolvers<void>();
  const report = Promise.withResolvers<ClientsReport>();
  w.onmessage = (e) => {
    if (e.data.ready) ready.resolve();
    else if (e.data.got !== undefined) onGot?.(e.data.got);
    else if (e.data.report) report.resolve(e.data.report);
    else report.reject(new Error(e.data.error));
  };
  w.onerror = (e) => {
    e.preventDefault();
    ready.reject(new Error(e.message));
    report.reject(new Error(e.message));
  };
  w.postMessage(job);
  return { ready: ready.promise, report: report.promise, stop: () => w.terminate() };
}

async function fanout(arm: ArmName) {
  const t = await target(arm);
  const per = Array.from(
    { length: WORKERS },
    (_, i) => Math.floor(CLIENTS / WORKERS) + (i < CLIENTS % WORKERS ? 1 : 0),
  ).filter((n) => n > 0);
  const groups = per.map((n) =>
    clients({ url: t.url, clients: n, expect: UPDATES, deflate: false })
  );
  await Promise.all(groups.map((g) => g.ready));
  const started = now();
  for (let i = 0; i < UPDATES; i++) {
    t.broadcast(`t:${now()}`);
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 0));
  }
  const reports = await Promise.all(groups.map((g) => g.report));
  for (const g of groups) g.stop();
  await t.stop();
  const lat = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const last = Math.max(...reports.map((r) => r.last));
  const frames = reports.reduce((n, r) => n + r.frames, 0);
  return {
    rate: frames / ((last - started) / 1000),
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    frames,
    bytes: reports.reduce((n, r) => n + r.bytes, 0),
  };
}

async function bigFrame(arm: ArmName, deflate: boolean) {
  const t = await target(arm);
  let got = Promise.withResolvers<number>();
  const g = clients(
    { url: t.url, clients: 1, expect: RUNS, deflate, progress: true },
    (ms) => got.resolve(ms),
  );
  await g.ready;
  const pad = "x".repeat(BIG);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t.broadcast(`t:${now()}|${pad}`);
    times.push(await got.promise);
    got = Promise.withResolvers<number>();
  }
  const report = await g.report;
  g.stop();
  await t.stop();
  return { ms: pct(times.sort((a, b) => a - b), 50), bytes: report.bytes, frames: report.frames };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const f = (n: number, d = 1) => n.toFixed(d);
/** "median (min..max)" of a list. */
function spread(xs: number[], d = 1): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${f(pct(s, 50), d)} (${f(s[0], d)}..${f(s.at(-1)!, d)})`;
}
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

type Fan = Awaited<ReturnType<typeof fanout>>;
const fan = new Map<ArmName, Fan[]>(ARMS.map((a) => [a, []]));
console.log(
  `fan-out: ${CLIENTS} clients on home in ${WORKERS} workers x ${UPDATES} updates, ` +
    `${ROUNDS} rounds (load ${load()})`,
);
for (let r = 0; r < ROUNDS; r++) {
  for (const arm of r % 2 === 0 ? ARMS : [...ARMS].reverse()) fan.get(arm)!.push(await fanout(arm));
}
for (const [arm, rs] of fan) {
  console.log(
    `  ${arm.padEnd(8)} ${spread(rs.map((r) => r.rate), 0)} msg/s   p50 ${
      spread(rs.map((r) => r.p50))
    } ms   p99 ${spread(rs.map((r) => r.p99))} ms   moved ${rs[0].frames} frames / ${
      f(rs[0].bytes / 1e6, 2)
    } MB a round`,
  );
}
const ratio = (a: ArmName, b: ArmName, k: keyof Fan) =>
  fan.get(a)!.map((x, i) => (x[k] as number) / (fan.get(b)![i][k] as number));
if (fan.has("forge") && fan.has("bare") && fan.has("bare_ws")) {
  console.log(
    `  forge/bare throughput ${spread(ratio("forge", "bare", "rate"), 2)}x   p99 ${
      spread(ratio("forge", "bare", "p99"), 2)
    }x;  forge/bare_ws throughput ${spread(ratio("forge", "bare_ws", "rate"), 2)}x`,
  );
}
if (SKIP_BIG) Deno.exit(0);

console.log(`one 3.5 MB frame, accepted to parsed (median of ${RUNS} a round, ${ROUNDS} rounds)`);
const big = new Map<string, number[]>();
const moved = new Map<string, number>();
for (let r = 0; r < ROUNDS; r++) {
  const order: [ArmName, boolean][] = [["forge", false], ["bare", false], ["forge", true], [
    "bare",
    true,
  ]];
  for (const [arm, deflate] of r % 2 === 0 ? order : order.reverse()) {
    const key = `${arm} ${deflate ? "deflate" : "text"}`;
    const { ms, bytes, frames } = await bigFrame(arm, deflate);
    if (frames !== RUNS) throw new Error(`${key} delivered ${frames} of ${RUNS} frames`);
    big.set(key, [...(big.get(key) ?? []), ms]);
    moved.set(key, bytes / RUNS);
  }
}
for (const [key, ms] of big) {
  console.log(`  ${key.padEnd(14)} ${spread(ms)} ms   (${f(moved.get(key)! / 1e3, 1)} kB a frame)`);
}
const over = (a: string, b: string) => big.get(a)!.map((x, i) => x / big.get(b)![i]);
console.log(
  `  forge/bare text ${spread(over("forge text", "bare text"), 2)}x   deflate ${
    spread(over("forge deflate", "bare deflate"), 2)
  }x`,
);
