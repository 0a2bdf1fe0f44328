/**
 * The crash soak at size (tests/crash_soak.ts): forge, run as a person runs it with its lead on
 * the real claude CLI and the fake Messages API, killed with SIGKILL `--kills` times at random
 * moments of random work and started again, every restart checked. Prints the figures - kills,
 * transcript rows compared, outage fires checked exactly once - and how long each outage's fire
 * took from `LISTENING`, beside its floor: right after each fire, in the same boot, the real CLI
 * started bare (arms/cli_start.ts), spawn to its `initialize` answer, which no fire can beat
 * (forge hands the woken lead the prompt only once its CLI answered). The goal - the fire within
 * 10 s of the boot, every time - is judged on forge's share of each fire (the fire less the floor
 * beside it), since the CLI's own start on a loaded machine is the machine's; the raw figure is
 * printed beside it. The boot itself (start command to `LISTENING`) is printed too.
 *
 * 70 kills by default, each run at a fresh seed it prints: three runs kill at 210 moments, more
 * distinct ones than one 200-kill run at one seed. `--full` is the 200-kill soak. Exits 1 on any
 * problem (a lost or doubled turn, an orphan, a fire that never came), 3 on a missed goal.
 *
 *   tools/deno.sh task bench crash_soak [--kills 70 | --full] [--seed N]
 */
import { crashSoak } from "../../tests/crash_soak.ts";
import { cliStartArm } from "./arms/cli_start.ts";
import { booleanFlag, numberFlag } from "./support/flags.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { spread as spreadOf } from "./support/stats.ts";

/** The bound the soak's goal sets on an outage fire, from the boot. */
const BOUND_MS = 10_000;
const KILLS = booleanFlag("full") ? 200 : numberFlag("kills", 70);
const SEED = numberFlag("seed", Math.floor(Math.random() * 2 ** 31));

console.log(`crash soak: ${KILLS} kills, seed ${SEED} (--seed ${SEED} replays its choices)`);
const t0 = performance.now();
const floor = await cliStartArm();
const report = await (async () => {
  try {
    return await crashSoak({
      kills: KILLS,
      seed: SEED,
      say: (line) => console.error(line),
      beside: (apiUrl) => floor.time(apiUrl),
    });
  } finally {
    await floor.dispose();
  }
})();
/** `median (min..max)` in seconds. */
const spread = (ms: number[]) =>
  ms.length === 0 ? "none" : `${spreadOf(ms.map((x) => x / 1000))} s`;
const over = (ms: number[]) => `${ms.filter((x) => x > BOUND_MS).length} of ${ms.length}`;
console.log(
  `crash soak: ${report.kills} kills, ${report.turnsChecked} transcript rows checked ` +
    `(${report.workersChecked} of the histories a worker's), ` +
    `${report.firesChecked} outage fires checked exactly once, ${report.problems.length} problems, ` +
    `${((performance.now() - t0) / 60_000).toFixed(1)} min`,
);
console.log(`moments: ${JSON.stringify(report.actions)}`);
const fire = report.fireMs;
const share = fire.map((ms, i) => ms - (report.besideMs[i] ?? 0));
console.log(`fire after LISTENING: ${spread(fire)}; over 10 s: ${over(fire)}`);
console.log(`the bare CLI's start beside each fire (the floor): ${spread(report.besideMs)}`);
console.log(`forge's share of each fire (the fire less its floor): ${spread(share)}`);
console.log(`forge's own fire (cron_fired) after LISTENING: ${spread(report.handedMs)}`);
console.log(`boot to LISTENING: ${spread(report.bootMs)}`);
const slowest = fire.map((ms, i) => [ms, report.besideMs[i] ?? 0, report.fireBootMs[i]])
  .sort((a, b) => b[0] - a[0]).slice(0, 6);
const s = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `slowest fires (fire s / the CLI start beside it / that boot's own s): ${
    slowest.map(([f, c, b]) => `${s(f)}/${s(c)}/${s(b)}`).join(", ")
  }`,
);
goal(
  "an outage's schedule fires within 10 s of the boot",
  share.every((ms) => ms <= BOUND_MS),
  `forge's share ${spread(share)}, over 10 s: ${over(share)}; the fire itself ${spread(fire)}, ` +
    `over 10 s: ${over(fire)}; beside it the bare CLI's start ${spread(report.besideMs)}`,
  "each fire less the bare CLI start beside it <= 10 s, every time",
);
for (const p of report.problems.slice(0, 40)) console.log(`  problem: ${p}`);
finishGoals();
if (report.problems.length > 0) Deno.exitCode = 1;
