// Crash at any moment (docs/state.md): forge killed with SIGKILL 20 times
// at random moments of random work and started again. After every restart each seat's history
// (the lead's and every live worker's) matches its transcript, the board, schedules, subscriptions and workers are as they were, no
// orphan CLI, worktree or temp file is left, and the schedule that fell due while forge was down
// fired exactly once. tools/bench/crash_soak.ts runs the same 200 times and times the fires.
import { assert, assertEquals } from "./assert.ts";
import { crashSoak } from "./crash_soak.ts";

const KILLS = Number(Deno.env.get("FORGE_SOAK_KILLS") ?? "20");
const SEED = Number(Deno.env.get("FORGE_SOAK_SEED") ?? "20261204");

Deno.test("crash soak: killed at random moments, forge loses nothing and leaves nothing", async () => {
  const report = await crashSoak({
    kills: KILLS,
    seed: SEED,
    say: Deno.env.get("FORGE_SOAK_DEBUG") ? (line) => console.error(line) : undefined,
  });
  assertEquals(report.problems, []);
  assertEquals(report.kills, KILLS);
  assert(report.firesChecked >= KILLS / 2, `outage fires checked: ${report.firesChecked}`);
  assert(report.turnsChecked > 0, "the seats' histories were compared with their transcripts");
  assert(report.workersChecked > 0, "a worker's history was compared with its transcript");
});
