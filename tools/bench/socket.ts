/**
 * The socket's fan-out and big-frame costs: forge beside a bare `Deno.serve` WebSocket broadcast
 * (the floor) and a bare node:http + `ws` broadcast (the transport forge runs on), in paired,
 * interleaved arms whose order turns each pair (forge, bare, ws / ws, bare, forge, ...). The
 * clients live in Worker threads, so their parsing is not on the server's thread; latency runs
 * from the stamp taken when the server accepted the update to the client's parse. Each arm prints
 * what it moved, so an arm that stopped delivering cannot look fast.
 *
 * Two home fan-outs to `--clients` clients, each judged pair by pair against the bare broadcast
 * of the same frames (goal: forge's throughput at least 0.8x the floor's in 7 of 9 pairs): a
 * stream of `--updates` small updates, and `--big-updates` updates of `--big-mb` MiB each (a
 * home update as large as they come). Then one 3.5 MB frame to one client, text and kind 3.
 *
 *   deno task bench socket [--clients 50] [--updates 2000] [--big-mb 2] [--big-updates 4]
 *     [--pairs 9] [--workers 2] [--runs 5] [--frame-pairs 5] [--arms forge,bare,bare_ws] [--no-big]
 */
import { type ArmName, target } from "./arms/socket_targets.ts";
import type { ClientsJob, ClientsReport } from "./arms/socket_clients.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { percentile, spread } from "./support/stats.ts";
import { booleanFlag, numberFlag } from "./support/flags.ts";

const CLIENTS = numberFlag("--clients", 50);
const UPDATES = numberFlag("--updates", 2000);
const BIG_MB = numberFlag("--big-mb", 2);
const BIG_UPDATES = numberFlag("--big-updates", 4);
const PAIRS = numberFlag("--pairs", 9);
const WORKERS = numberFlag("--workers", 2);
const RUNS = numberFlag("--runs", 5);
const FRAME_PAIRS = numberFlag("--frame-pairs", 5);
const BIG = 3_500_000;
const armsArg = Deno.args.indexOf("--arms");
/** `--arms forge` runs one arm alone (for a profile); ratios print only when both are there. */
const ARMS =
  (armsArg >= 0 ? Deno.args[armsArg + 1].split(",") : ["forge", "bare", "bare_ws"]) as ArmName[];
const SKIP_BIG = booleanFlag("--no-big");
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

/** One fan-out arm: `updates` updates of `pad` bytes each to every client, as fast as accepted. */
async function fanout(arm: ArmName, updates: number, pad: number) {
  const t = await target(arm);
  const per = Array.from(
    { length: WORKERS },
    (_, i) => Math.floor(CLIENTS / WORKERS) + (i < CLIENTS % WORKERS ? 1 : 0),
  ).filter((n) => n > 0);
  const groups = per.map((n) =>
    clients({ url: t.url, clients: n, expect: updates, deflate: false })
  );
  await Promise.all(groups.map((g) => g.ready));
  const body = pad > 0 ? `|${"x".repeat(pad)}` : "";
  const started = now();
  for (let i = 0; i < updates; i++) {
    t.broadcast(`t:${now()}${body}`);
    if (pad > 0 || i % 50 === 49) await new Promise((r) => setTimeout(r, 0));
  }
  const reports = await Promise.all(groups.map((g) => g.report));
  for (const g of groups) g.stop();
  await t.stop();
  const lat = reports.flatMap((r) => r.latencies);
  const last = Math.max(...reports.map((r) => r.last));
  const frames = reports.reduce((n, r) => n + r.frames, 0);
  return {
    rate: frames / ((last - started) / 1000),
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
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
  return { ms: percentile(times, 50), bytes: report.bytes, frames: report.frames };
}

const f = (n: number, d = 1) => n.toFixed(d);
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
type Fan = Awaited<ReturnType<typeof fanout>>;

/** `PAIRS` interleaved pairs of one fan-out; each pair's arms and ratio printed as they land. */
async function fanoutPairs(name: string, updates: number, pad: number) {
  const fan = new Map<ArmName, Fan[]>(ARMS.map((a) => [a, []]));
  const describe = (r: Fan) =>
    `${f(r.rate, 0)} msg/s, p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms, moved ${r.frames} frames / ` +
    `${f(r.bytes / 1e6, 1)} MB`;
  console.log(
    `${name}: ${CLIENTS} clients on home in ${WORKERS} workers x ${updates} updates of ` +
      `${pad > 0 ? `${f(pad / 2 ** 20, 1)} MiB` : "about 100 B"}, ${PAIRS} pairs (load ${load()})`,
  );
  for (let p = 0; p < PAIRS; p++) {
    for (const arm of p % 2 === 0 ? ARMS : [...ARMS].reverse()) {
      fan.get(arm)!.push(await fanout(arm, updates, pad));
    }
    const line = ARMS.map((a) => `${a} ${describe(fan.get(a)![p])}`).join(" | ");
    const both = fan.has("forge") && fan.has("bare");
    const ratio = both ? fan.get("forge")![p].rate / fan.get("bare")![p].rate : NaN;
    console.log(`  pair ${p + 1}: ${line}${both ? ` | forge/bare ${f(ratio, 2)}x` : ""}`);
  }
  if (!fan.has("forge") || !fan.has("bare")) return;
  const ratios = fan.get("forge")!.map((x, i) => x.rate / fan.get("bare")![i].rate);
  const met = ratios.filter((r) => r >= 0.8).length;
  for (const [arm, rs] of fan) {
    console.log(
      `  ${arm.padEnd(8)} ${spread(rs.map((r) => r.rate), 0)} msg/s   p50 ${
        spread(rs.map((r) => r.p50), 1)
      } ms   p99 ${spread(rs.map((r) => r.p99), 1)} ms`,
    );
  }
  const needed = Math.ceil((7 / 9) * ratios.length);
  goal(
    `${name}, forge/bare throughput`,
    met >= needed,
    `>= 0.8x in ${met} of ${ratios.length} pairs, ratios ${spread(ratios)}; forge ${
      spread(fan.get("forge")!.map((r) => r.rate), 0)
    } msg/s, bare (the floor) ${spread(fan.get("bare")!.map((r) => r.rate), 0)} msg/s`,
    `>= 0.8x the bare broadcast in at least 7 of 9 pairs`,
  );
}

await fanoutPairs("home fan-out", UPDATES, 0);
if (BIG_UPDATES > 0) await fanoutPairs("home fan-out, large", BIG_UPDATES, BIG_MB * 2 ** 20);

if (!SKIP_BIG && ARMS.includes("forge") && ARMS.includes("bare")) {
  console.log(
    `one 3.5 MB frame, accepted to parsed (median of ${RUNS} a pair, ${FRAME_PAIRS} pairs)`,
  );
  const big = new Map<string, number[]>();
  const moved = new Map<string, number>();
  for (let r = 0; r < FRAME_PAIRS; r++) {
    const order: [ArmName, boolean][] = [
      ["forge", false],
      ["bare", false],
      ["forge", true],
      ["bare", true],
    ];
    for (const [arm, deflate] of r % 2 === 0 ? order : order.reverse()) {
      const key = `${arm} ${deflate ? "deflate" : "text"}`;
      const { ms, bytes, frames } = await bigFrame(arm, deflate);
      if (frames !== RUNS) throw new Error(`${key} delivered ${frames} of ${RUNS} frames`);
      big.set(key, [...(big.get(key) ?? []), ms]);
      moved.set(key, bytes / RUNS);
    }
  }
  for (const [key, ms] of big) {
    console.log(
      `  ${key.padEnd(14)} ${spread(ms, 1)} ms   (${f(moved.get(key)! / 1e3, 1)} kB a frame)`,
    );
  }
  const over = (a: string, b: string) => big.get(a)!.map((x, i) => x / big.get(b)![i]);
  console.log(
    `  forge/bare text ${spread(over("forge text", "bare text"))}x   deflate ${
      spread(over("forge deflate", "bare deflate"))
    }x`,
  );
}
finishGoals();
