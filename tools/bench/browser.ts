/**
 * Browser bench: a real Chromium behind a real forge socket.
 *
 *   tools/deno.sh run --allow-all tools/bench/browser.ts [--secs 4] [--pairs 3] [--clicks 40]
 *
 * - frames/s and bytes/s on an animated 1280x720 page, 1 viewer vs 5 viewers, in interleaved
 *   pairs; beside each, the frames the host encoded in the same window (its seq advance), so
 *   the relay's loss (a behind viewer served the newest) is visible.
 * - input-to-next-frame: the controller's press on a still counter page until its next frame
 *   arrives (p50/p99).
 * - host start: spawn to DevTools URL, over --starts fresh hosts; RSS of each host's process
 *   group (Chromium's every process) with one tab.
 */
import { median } from "./support/stats.ts";
import { decodeBrowserFrame } from "../../protocol/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import { startServer } from "../../server/server.ts";
import { browserConfig, pageServer, SEAT } from "../../tests/browser_harness.ts";
import { ForgeClient } from "../client_lib.ts";
import { numberFlag } from "./support/flags.ts";

const SECS = numberFlag("secs", 4);
const PAIRS = numberFlag("pairs", 3);
const CLICKS = numberFlag("clicks", 40);
const STARTS = numberFlag("starts", 3);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const range = (xs: number[], digits = 1) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}..${
    Math.max(...xs).toFixed(digits)
  })`;

const page = pageServer();
const project = await Deno.makeTempDir({ prefix: "forge-browser-bench-" });
await Deno.writeTextFile(`${project}/forge.toml`, browserConfig(project));
const log = memoryLogger();
const server = await startServer({ configPath: `${project}/forge.toml`, port: 0, log });

async function client(): Promise<ForgeClient> {
  const c = await ForgeClient.connect(server.url);
  await c.next((m) => m.kind === "settings");
  return c;
}

/** Opens `path` in a new tab and returns its number. */
async function open(c: ForgeClient, path: string): Promise<number> {
  const url = `${page.url}${path}`;
  c.send({ kind: "browser_tabs", seat: SEAT, reply_to: 1 });
  await c.next((m) => m.kind === "reply" && m.reply_to === 1, 30_000);
  c.send({ kind: "command", command: { open_url: { url } } });
  const tabs = await c.next(
    (m) => m.kind === "browser_tabs" && (m.rows as { url: string }[]).some((r) => r.url === url),
    30_000,
  ).catch((e) => {
    const last = c.frames.filter((f) => f.type === "json" && f.data.kind === "browser_tabs");
    console.log(JSON.stringify(last.at(-1)));
    throw e;
  }) as unknown as { rows: { url: string; number: number }[] };
  return tabs.rows.find((r) => r.url === url)!.number;
}

function binaryFrames(c: ForgeClient, tab: number) {
  return c.frames.flatMap((f) => {
    if (f.type !== "binary" || f.kind !== 1) return [];
    const d = decodeBrowserFrame(f.bytes);
    return d.ok && d.frame.tab === tab ? [{ seq: d.frame.seq, bytes: f.bytes.length }] : [];
  });
}

async function attach(c: ForgeClient, tab: number, r: number) {
  c.send({ kind: "browser_view", seat: SEAT, tab, reply_to: r });
  await c.next((m) => m.kind === "reply" && m.reply_to === r, 30_000);
}

const opener = await client();
const viewers: ForgeClient[] = [];
for (let i = 0; i < 5; i++) viewers.push(await client());

// Input to next frame, on a still page (before the animated page loads the cores).
const counter = await open(opener, "/counter");
const ctl = viewers[0];
await attach(ctl, counter, 200);
ctl.send({ kind: "browser_control", take: true });
await ctl.next((m) => m.kind === "browser_view" && m.controller !== null, 30_000);
await new Promise((r) => setTimeout(r, 500));
const lat: number[] = [];
for (let i = 0; i < CLICKS; i++) {
  const seq = Math.max(0, ...binaryFrames(ctl, counter).map((f) => f.seq));
  const t0 = performance.now();
  ctl.send({
    kind: "browser_input",
    seq: i + 1,
    event: { type: "press", x: 300, y: 300 },
  });
  await ctl.nextFrame((f) => {
    if (f.type !== "binary" || f.kind !== 1) return false;
    const d = decodeBrowserFrame(f.bytes);
    return d.ok && d.frame.tab === counter && d.frame.seq > seq;
  }, 10_000);
  lat.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 50));
}
ctl.send({ kind: "browser_detach" });
console.log(
  `input to next frame (${CLICKS} presses): p50 ${pct(lat, 0.5).toFixed(1)} ms, p99 ${
    pct(lat, 0.99).toFixed(1)
  } ms`,
);

const animated = await open(opener, "/animated");

/** One window of `n` viewers on the animated tab: per-viewer frames/s, bytes/s, host frames/s. */
async function arm(n: number) {
  const watching = viewers.slice(0, n);
  for (const [i, v] of watching.entries()) await attach(v, animated, 100 + i);
  await new Promise((r) => setTimeout(r, 800)); // past the key frames
  const start = watching.map((v) => binaryFrames(v, animated).length);
  const seq0 = Math.max(...binaryFrames(watching[0], animated).map((f) => f.seq));
  await new Promise((r) => setTimeout(r, SECS * 1000));
  const got = watching.map((v, i) => binaryFrames(v, animated).slice(start[i]));
  const seq1 = Math.max(...binaryFrames(watching[0], animated).map((f) => f.seq));
  for (const v of watching) v.send({ kind: "browser_detach" });
  for (const v of watching) v.frames.length = 0;
  return {
    fps: median(got.map((g) => g.length / SECS)),
    bps: median(got.map((g) => g.reduce((s, f) => s + f.bytes, 0) / SECS)),
    hostFps: (seq1 - seq0) / SECS,
  };
}

const results: Record<number, { fps: number[]; bps: number[]; host: number[] }> = {
  1: { fps: [], bps: [], host: [] },
  5: { fps: [], bps: [], host: [] },
};
for (let p = 0; p < PAIRS; p++) {
  for (const n of p % 2 === 0 ? [1, 5] : [5, 1]) {
    const r = await arm(n);
    results[n].fps.push(r.fps);
    results[n].bps.push(r.bps / 1024);
    results[n].host.push(r.hostFps);
  }
}
console.log(`animated 1280x720 page, ${PAIRS} interleaved pairs of ${SECS} s windows`);
for (const n of [1, 5]) {
  console.log(
    `  ${n} viewer(s): per viewer ${range(results[n].fps)} frames/s, ${
      range(results[n].bps, 0)
    } KiB/s; host encoded ${range(results[n].host)} frames/s`,
  );
}

// RSS of the running host's whole process group.
const started = log.records.filter((r) => r.event === "browser_host_started") as unknown as {
  pid: number;
  ms: number;
}[];
const ps = new TextDecoder().decode(
  (await new Deno.Command("ps", { args: ["-eo", "pgid=,rss="] }).output()).stdout,
);
const rssKiB = ps.trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number))
  .filter(([g]) => g === started[0].pid).reduce((s, [, r]) => s + r, 0);
console.log(
  `host RSS (every process of its group, 3 tabs): ${(rssKiB / 1024).toFixed(0)} MiB summed`,
);
for (const c of [opener, ...viewers]) await c.close();
await server.stop();

// Host start: fresh servers so each start is a cold Chromium on a fresh profile.
const starts: number[] = [];
for (let i = 0; i < STARTS; i++) {
  const dir = await Deno.makeTempDir({ prefix: "forge-browser-bench-" });
  await Deno.writeTextFile(`${dir}/forge.toml`, browserConfig(dir));
  const l = memoryLogger();
  const s = await startServer({ configPath: `${dir}/forge.toml`, port: 0, log: l });
  const c = await ForgeClient.connect(s.url);
  await c.next((m) => m.kind === "settings");
  const t0 = performance.now();
  c.send({ kind: "browser_view", seat: SEAT, reply_to: 1 });
  await c.next((m) => m.kind === "reply", 30_000);
  const attachMs = performance.now() - t0;
  const rec = l.records.find((r) => r.event === "browser_host_started") as unknown as {
    ms: number;
  };
  starts.push(rec.ms);
  console.log(
    `  start ${i + 1}: chromium to DevTools ${rec.ms.toFixed(0)} ms, first attach answered ${
      attachMs.toFixed(0)
    } ms`,
  );
  await c.close();
  await s.stop();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
console.log(`host start (spawn to DevTools URL): ${range(starts, 0)} ms`);
await page[Symbol.asyncDispose]();
await Deno.remove(project, { recursive: true }).catch(() => {});
