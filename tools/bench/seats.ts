/**
 * Seats at scale: forge with `--seats` live seats (50), each the real `claude` CLI against the
 * fake Messages API (fixtures/seats/), forge started as a person starts it (`deno task start`,
 * its own process under the launcher's permissions). What forge itself holds and spends for
 * them: its resident set with every seat live and idle beside its resident set at boot with none
 * (the floor), and its CPU while they all sit idle beside its idle CPU at boot, each over
 * `--idle-s` seconds, read from /proc. The CLIs are other processes and are not counted; their
 * sum is printed beside.
 *
 *   tools/deno.sh task bench seats [--seats 50] [--idle-s 10] [--batch 10]
 *
 * Seats start `--batch` at a time (each a `new_session`, done at its `connected`), and each
 * answers one prompt, so every seat holds a turn as a seat someone used does.
 * Goals: forge's own RSS at most 5 MiB a seat above boot; all idle, forge under 1% of a core.
 */
import { parseArgs } from "node:util";
import { command, seatWorld, updateOf } from "../../tests/seats_harness.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { processNs, rssMiB } from "./support/cpu.ts";
import type { ForgeClient } from "../client_lib.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    seats: { type: "string", default: "50" },
    "idle-s": { type: "string", default: "10" },
    batch: { type: "string", default: "10" },
  },
});
const SEATS = Number(values.seats);
const IDLE_MS = Number(values["idle-s"]) * 1000;
const BATCH = Number(values.batch);
const SETTLE_MS = 15_000;

/**
 * The process's CPU share of one core over `ms` of idle: /proc/<pid>/stat's user and system
 * time, which keeps the time of threads that ended inside the window (10 ms ticks: 0.1% of a core
 * over 10 s).
 */
async function idleShare(pid: number, ms: number): Promise<number> {
  const before = processNs(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  return (processNs(pid) - before) / 1e6 / (performance.now() - t0);
}

/** Resident set of every process whose command names the claude binary, MiB. */
function cliRss(): { count: number; mib: number } {
  const bin = Deno.env.get("FORGE_CLAUDE_BIN") ?? "claude";
  let count = 0, mib = 0;
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).split("\0")[0];
      if (cmd !== bin) continue;
      count++;
      mib += rssMiB(Number(e.name));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return { count, mib };
}

const names = Array.from({ length: SEATS }, (_, i) => `s${String(i).padStart(2, "0")}`);
const world = await seatWorld(names.map((name) => ({ name, autoStart: false })));
try {
  const forge = await world.startForge();
  const pid = forge.serverPid();
  const c: ForgeClient = await forge.ready();
  // `connected` and a turn's `result` are fleet news: a home subscriber hears every seat's.
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot", 60_000);
  await new Promise((r) => setTimeout(r, 3000)); // boot's own work done
  const bootIdle = await idleShare(pid, IDLE_MS);
  const bootRss = rssMiB(pid);
  console.log(
    `boot, no seat: forge RSS ${bootRss.toFixed(1)} MiB, idle CPU ${
      (100 * bootIdle).toFixed(2)
    }% of a core over ${IDLE_MS / 1000} s`,
  );
  const t0 = performance.now();
  for (let i = 0; i < SEATS; i += BATCH) {
    const batch = names.slice(i, i + BATCH).map((n) => world.lead(n));
    for (const key of batch) {
      command(c, "new_session", { key, cwd: world.projectDir(key.project), launch_settings: {} });
    }
    for (const key of batch) {
      await c.next((m) => {
        const u = updateOf(m, "connected");
        return !!u && JSON.stringify(u.key) === JSON.stringify(key);
      }, 180_000);
    }
    for (const key of batch) {
      command(c, "prompt", { key, text: "[[script:hello]] hello", attachments: [] });
    }
    for (const key of batch) {
      await c.next((m) => {
        const u = updateOf(m, "chat_appended");
        const msg = u?.msg as { type?: string } | undefined;
        return msg?.type === "result" && JSON.stringify(u!.key) === JSON.stringify(key);
      }, 180_000);
    }
  }
  console.log(
    `${SEATS} seats live, each after one turn, in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s`,
  );
  // The last turn's aftermath settles: the CLIs' own requests after a turn pass the gateway.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const asked = (await world.apiRequests()).length;
  const liveIdle = await idleShare(pid, IDLE_MS);
  const liveRss = rssMiB(pid);
  const askedIdle = (await world.apiRequests()).length - asked;
  const clis = cliRss();
  console.log(
    `${SEATS} seats idle: forge RSS ${liveRss.toFixed(1)} MiB, idle CPU ${
      (100 * liveIdle).toFixed(2)
    }% of a core (the CLIs sent the API ${askedIdle} requests meanwhile); the ${clis.count} CLIs ` +
      `beside it hold ${clis.mib.toFixed(0)} MiB (${
        (clis.mib / Math.max(1, clis.count)).toFixed(0)
      } MiB each)`,
  );
  const perSeat = (liveRss - bootRss) / SEATS;
  goal(
    `forge RSS per live seat, ${SEATS} seats`,
    perSeat <= 5,
    `${perSeat.toFixed(2)} MiB a seat (${liveRss.toFixed(1)} MiB live against ` +
      `${bootRss.toFixed(1)} MiB at boot, the floor)`,
    "<= 5 MiB a seat above boot",
  );
  goal(
    `forge CPU, ${SEATS} seats idle`,
    liveIdle < 0.01,
    `${(100 * liveIdle).toFixed(2)}% of a core (at boot with none: ${
      (100 * bootIdle).toFixed(2)
    }%)`,
    "< 1% of a core",
  );
} finally {
  await world.dispose();
}
finishGoals();
