/**
 * The once-a-second seat walk (spec: session > processes) read from /proc: the machine's whole
 * table (every /proc/<pid>/stat, synchronously, as the walk read it before) beside the seat's tree
 * alone (server/workspace/seats/proc_files.ts readSubtrees: `children` files and async reads), in
 * interleaved pairs, with `--extra` idle processes added to the machine between rounds.
 *
 *   tools/deno.sh run -A tools/bench/seat_walk.ts [--pairs 15] [--extra 0,250,500]
 *
 * Per arm: the walk's wall time, this process's CPU, and the longest the event loop went without
 * running a timer while the walk ran (a frame due on the socket would have waited that long); the
 * same gap with no walk at all is printed as the timer loop's own floor. Both arms must find the
 * same tree, and the tree they found is printed.
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { procTable, readSubtrees } from "../../server/workspace/seats/proc_files.ts";
import { descendants, processTree } from "../../server/workspace/seats/procfs.ts";
import { spread } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    pairs: { type: "string", default: "15" },
    extra: { type: "string", default: "0,250,500" },
  },
});
const PAIRS = Number(values.pairs);
const EXTRA = String(values.extra).split(",").map(Number);

/** A seat-like tree: a shell with three children under it. */
const seat = new Deno.Command("sh", { args: ["-c", "sleep 600 & sleep 601 & sleep 602 & wait"] })
  .spawn();
const shape = (rows: unknown) =>
  JSON.stringify((rows as { pid: number; command: string }[]).map((r) => [r.pid, r.command]));

type Arm = { ms: number; cpuMs: number; stallMs: number; rows: string };

/** Runs `walk` while a timer loop watches for the event loop's longest gap. */
async function timed(walk: () => Promise<unknown> | unknown): Promise<Arm> {
  let stall = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await new Promise((r) => setTimeout(r, 5)); // the loop is ticking before the walk starts
  stall = 0;
  last = performance.now();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const rows = (await walk()) as { processes: unknown };
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  await new Promise((r) => setTimeout(r, 2)); // the gap that ends with the walk is counted
  ticking = false;
  return { ms, cpuMs: (c.user + c.system) / 1000, stallMs: stall, rows: shape(rows.processes) };
}

const idle: Deno.ChildProcess[] = [];
try {
  // The shell has forked its three sleeps and they have exec'd: the tree both arms must find.
  const sleeps = () =>
    (processTree(procTable(), seat.pid).processes as { command: string }[])
      .filter((r) => /^sleep 60[012]$/.test(r.command)).length;
  for (let i = 0; sleeps() < 3; i++) {
    if (i === 500) throw new Error("the seat's shell never started its three sleeps");
    await new Promise((r) => setTimeout(r, 10));
  }
  for (const extra of EXTRA) {
    while (idle.length < extra) {
      idle.push(new Deno.Command("sleep", { args: ["600"], stdout: "null" }).spawn());
    }
    const machine = [...Deno.readDirSync("/proc")].filter((e) => /^\d+$/.test(e.name)).length;
    const arms = { whole: [] as Arm[], tree: [] as Arm[] };
    const whole = () => processTree(procTable(), seat.pid);
    const tree = async () => processTree((await readSubtrees([seat.pid]))!, seat.pid);
    for (let i = 0; i < PAIRS; i++) {
      // Whole table first in even pairs, the tree alone first in odd ones.
      const order = i % 2 === 0 ? ["whole", "tree"] as const : ["tree", "whole"] as const;
      for (const arm of order) arms[arm].push(await timed(arm === "whole" ? whole : tree));
    }
    const floor: Arm[] = [];
    for (let i = 0; i < PAIRS; i++) floor.push(await timed(() => ({ processes: [] })));
    const rows = new Set([...arms.whole, ...arms.tree].map((a) => a.rows));
    if (rows.size !== 1) {
      throw new Error(`the arms found different trees: ${[...rows].join(" / ")}`);
    }
    console.log(`${machine} processes on the machine; the seat's tree: ${[...rows][0]}`);
    console.log(
      `  no walk      event loop's longest gap ${spread(floor.map((a) => a.stallMs))} ms`,
    );
    for (const arm of ["whole", "tree"] as const) {
      const xs = arms[arm];
      console.log(
        `  ${arm === "whole" ? "whole table" : "tree alone "}  walk ${
          spread(xs.map((a) => a.ms))
        } ms, ` +
          `cpu ${spread(xs.map((a) => a.cpuMs))} ms, event loop's longest gap ` +
          `${spread(xs.map((a) => a.stallMs))} ms (${PAIRS} pairs)`,
      );
    }
  }
} finally {
  // The seat's sleeps first: its shell's `wait` reaps them and it exits on its own.
  for (const pid of descendants(procTable(), seat.pid)) Deno.kill(pid, "SIGKILL");
  await seat.status;
  for (const p of idle) p.kill("SIGKILL");
  await Promise.all(idle.map((p) => p.status));
}
