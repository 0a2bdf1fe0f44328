/**
 * Workers bench: spawn-to-connected for 1 and 5 workers, and forge's own RSS per live
 * worker (the CLIs' excluded: they are other processes).
 *
 *   tools/deno.sh run --allow-all --v8-flags=--expose-gc tools/bench/workers.ts [--runs 3]
 *       [--sizes 1,5]
 *
 * forge runs in this process against the fake Messages API (fixtures/workers/script.json) with
 * the real CLI, on a project that is a git repository. Arms are paired and interleaved, per size:
 *  - workers: N `spawn_worker` commands at once, timed until every reply is `Ok` (a reply is sent
 *    once the worker's CLI answered initialize and its kick went in), then all despawned;
 *  - seats (the baseline): N plain `new_session` seats in the project's own directory, no
 *    worktree and no charter, timed until every `connected`, then closed.
 * So the difference is what a worker adds to a seat: the worktree, the charter, the record.
 * RSS: this process's resident set with N workers live minus with none, divided by N.
 */
import { ForgeClient } from "../client_lib.ts";
import { seatWorld } from "../../tests/seats_harness.ts";
import { stringFlag } from "./support/flags.ts";

const RUNS = Number(stringFlag("runs", "3"));
const SIZES = stringFlag("sizes", "1,5").split(",").map(Number);
const SCRIPT = new URL("../../fixtures/workers/script.json", import.meta.url).pathname;
const MAX = Math.max(...SIZES);

const world = await seatWorld([{ name: "alpha", autoStart: false }], SCRIPT);
await Deno.writeTextFile(
  world.configPath,
  (await Deno.readTextFile(world.configPath)) + `max_workers = ${MAX}\n`,
);
const repo = world.projectDir("alpha");
const git = (...args: string[]) =>
  new Deno.Command("git", {
    args: ["-c", "user.name=b", "-c", "user.email=b@b", ...args],
    cwd: repo,
    stdout: "null",
  }).outputSync();
git("init", "-q", "-b", "main");
await Deno.writeTextFile(`${repo}/README`, "bench\n");
git("add", ".");
git("commit", "-q", "-m", "first");

const forge = await world.startInProcess();
const c: ForgeClient = await forge.ready();
// `connected` is fleet news: a home subscriber hears every seat's.
c.send({ kind: "subscribe", what: "home" });
await c.next((m) => m.kind === "snapshot");
const lead = world.lead("alpha");
let id = 1;
const ask = async (name: string, fields: Record<string, unknown>) => {
  const reply_to = id++;
  c.sendUntyped({ kind: "command", command: { [name]: fields }, reply_to });
  return (await c.next((m) => m.kind === "reply" && m.reply_to === reply_to, 120_000)).body;
};
const send = (name: string, fields: Record<string, unknown>) =>
  c.sendUntyped({ kind: "command", command: { [name]: fields } });
// With --v8-flags=--expose-gc the heap is collected before each reading, so the RSS difference
// is what the live workers hold rather than garbage waiting for a collection.
const gc = (globalThis as { gc?: () => void }).gc;
const rss = () => {
  gc?.();
  return Deno.memoryUsage().rss;
};

async function workersArm(n: number, run: number): Promise<{ ms: number; rssPer: number }> {
  const labels = Array.from({ length: n }, (_, i) => `b${run}x${i}`);
  const before = rss();
  const t0 = performance.now();
  const bodies = await Promise.all(labels.map((label) =>
    ask("spawn_worker", {
      project_key: "alpha",
      label,
      charter: "Bench worker.",
      spawned_by: lead,
      kick: "Say hello.",
      interactive: false,
      from_boot_respawn: false,
    })
  ));
  const ms = performance.now() - t0;
  const bad = bodies.find((b) => !(b as Record<string, unknown>).Ok);
  if (bad) throw new Error(`spawn failed: ${JSON.stringify(bad)}`);
  const rssPer = (rss() - before) / n;
  for (const label of labels) {
    await ask("despawn_worker", { project_key: "alpha", label, force: true });
  }
  return { ms, rssPer };
}

async function seatsArm(n: number, run: number): Promise<number> {
  const slots = Array.from({ length: n }, (_, i) => ({ ...lead, label: `s${run}x${i}` }));
  const t0 = performance.now();
  for (const key of slots) send("new_session", { key, cwd: repo, launch_settings: {} });
  for (const key of slots) {
    await c.next((m) => {
      const u = m.kind === "update"
        ? (m.update as Record<string, Record<string, unknown>>).connected
        : null;
      return !!u && JSON.stringify(u.key) === JSON.stringify(key);
    }, 120_000);
  }
  const ms = performance.now() - t0;
  for (const key of slots) {
    send("close_session", { session_key: key });
  }
  return ms;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
};
const fmt = (xs: number[], unit: string, scale = 1) => {
  const { median, min, max } = stats(xs.map((x) => x / scale));
  return `median ${median.toFixed(0)} ${unit} (range ${min.toFixed(0)}-${max.toFixed(0)})`;
};

try {
  for (const n of SIZES) {
    const w: number[] = [], b: number[] = [], mem: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const first = run % 2 === 0;
      if (!first) b.push(await seatsArm(n, run));
      const r = await workersArm(n, run);
      w.push(r.ms);
      mem.push(r.rssPer);
      if (first) b.push(await seatsArm(n, run));
    }
    console.log(`${n} worker(s), ${RUNS} runs, each arm starting ${n} real CLI(s):`);
    console.log(`  workers (worktree + charter + kick) spawn-to-connected: ${fmt(w, "ms")}`);
    console.log(`  seats (baseline: plain new_session) spawn-to-connected: ${fmt(b, "ms")}`);
    console.log(
      `  forge's own RSS per live worker${gc ? " (GC forced)" : " (no --expose-gc: noisy)"}: ${
        fmt(mem, "KiB", 1024)
      }`,
    );
  }
} finally {
  await c.close();
  await forge.stop();
  await world.dispose();
}
