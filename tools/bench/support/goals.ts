/**
 * A bench's goals: each figure the project states a goal for is judged here against the floor
 * measured in the same run, printed as one `GOAL` line (met or MISSED, the figure, both arms
 * and the goal), and counted. `finishGoals()` sets the bench's exit code to 3 when any goal was
 * missed, which `task bench` (all.ts) reports apart from a bench that failed.
 */

/** The exit code of a bench that ran whole but missed a goal. */
export const MISSED_EXIT = 3;

/** The prefix all.ts collects for its closing table. */
export const GOAL_PREFIX = "GOAL ";

const missed: string[] = [];

/**
 * Records one goal: `figure` names it, `measured` says what was measured with the floor beside
 * it (both arms), `goal` the rule it is judged by. Returns `met`.
 */
export function goal(figure: string, met: boolean, measured: string, goal: string): boolean {
  if (!met) missed.push(figure);
  console.log(`${GOAL_PREFIX}${met ? "met   " : "MISSED"} ${figure}: ${measured} (goal: ${goal})`);
  return met;
}

/**
 * Closes the bench's goals: names the missed ones and sets exit code 3, else leaves it. The
 * bench runs on to its end - its `finally` blocks and `await using` disposals (a browser, a
 * server, a temp dir) still clean up, which `Deno.exit` would skip.
 */
export function finishGoals(): void {
  if (missed.length === 0) return;
  console.log(`goals missed: ${missed.join("; ")}`);
  Deno.exitCode = MISSED_EXIT;
}
