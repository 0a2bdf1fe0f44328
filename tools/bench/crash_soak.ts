/**
 * The crash soak at size (tests/crash_soak.ts): forge, run as a person runs it with its lead on
 * the real claude CLI and the fake Messages API, killed with SIGKILL `--kills` times (200 by
 * default) at random moments of random work and started again, every restart checked. Prints
 * the figures - kills, transcript rows compared, outage fires checked exactly once - and how long
 * each outage's fire took from `LISTENING`: median, range and how many passed the 10 s the soak
 * allows (the floor beside it: the boot itself, from the start command to `LISTENING`). Exits
 * non-zero on any problem.
 *
 *   tools/deno.sh run -A tools/bench/crash_soak.ts [--kills 200] [--seed N]
 */
import { crashSoak } from "../../tests/crash_soak.ts";
import { numberFlag } from "./support/flags.ts";
import { spread as spreadOf } from "./support/stats.ts";

const KILLS = numberFlag("kills", 200);
const SEED = numberFlag("seed", 20261204);

const t0 = performance.now();
const report = await crashSoak({
  kills: KILLS,
  seed: SEED,
  say: (line) => console.error(line),
});
/** `median (min..max)` in seconds. */
const spread = (ms: number[]) =>
  ms.length === 0 ? "none" : `${spreadOf(ms.map((x) => x / 1000))} s`;
console.log(
  `crash soak: ${report.kills} kills, ${report.turnsChecked} transcript rows checked ` +
    `(${report.workersChecked} of the histories a worker's), ` +
    `${report.firesChecked} outage fires checked exactly once, ${report.problems.length} problems, ` +
    `${((performance.now() - t0) / 60_000).toFixed(1)} min`,
);
console.log(`moments: ${JSON.stringify(report.actions)}`);
console.log(
  `fire after LISTENING: ${spread(report.fireMs)}; over 10 s: ${
    report.fireMs.filter((ms) => ms > 10_000).length
  } of ${report.fireMs.length}`,
);
console.log(`forge's own fire (cron_fired) after LISTENING: ${spread(report.handedMs)}`);
console.log(`boot to LISTENING (the floor): ${spread(report.bootMs)}`);
const slowest = report.fireMs.map((ms, i) => [ms, report.fireBootMs[i]])
  .sort((a, b) => b[0] - a[0]).slice(0, 6);
console.log(
  `slowest fires (fire s / that boot's own s): ${
    slowest.map(([f, b]) => `${(f / 1000).toFixed(1)}/${(b / 1000).toFixed(1)}`).join(", ")
  }`,
);
for (const p of report.problems.slice(0, 40)) console.log(`  problem: ${p}`);
if (report.problems.length > 0 || report.fireMs.some((ms) => ms > 10_000)) Deno.exitCode = 1;
