/**
 * Where a seat's review threads live: its project and the branch its checkout is on (a worker's
 * checkout is its worktree). The original forge's `review` tool family's scope, and its failures,
 * one sentence per failed step.
 */
import { isDir } from "../../server/path_kind.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { git, text } from "./git.ts";

/** A review scope: the thread store's key. */
export interface ReviewScopeKey {
  project: string;
  branch: string;
}

/** The scope of a seat, or the sentence naming the step that failed. */
export async function scopeOfSeat(
  seat: SeatInfo,
  shuttingDown: () => boolean,
): Promise<ReviewScopeKey | { why: string }> {
  if (shuttingDown()) return { why: "forge is shutting down" };
  const project = seat.project?.name;
  if (!project) return { why: "this session is not under any forge project" };
  if (!seat.cwd) return { why: "this session has no working directory recorded" };
  // Not there, or not a directory: either way the checkout is not on disk, which is the why.
  if (!await isDir(seat.cwd)) return { why: `the checkout ${seat.cwd} is not on disk` };
  const branch = await branchAt(seat.cwd);
  if ("why" in branch) return branch;
  return { project, branch: branch.branch };
}

/**
 * The branch checked out at `cwd`. `git symbolic-ref` exits 1 on a detached HEAD and 128 when
 * it cannot read a repository at all; each is its own sentence.
 */
export async function branchAt(cwd: string): Promise<{ branch: string } | { why: string }> {
  const r = await git(cwd, ["symbolic-ref", "--quiet", "--short", "HEAD"], { timeoutMs: 5_000 });
  const name = text(r.stdout).trim();
  if (r.code === 0 && name) return { branch: name };
  if (r.code === 1) {
    return { why: `the checkout ${cwd} has a detached HEAD, so it is on no branch to review` };
  }
  return { why: `git reported no branch at ${cwd}: ${r.stderr_line || "no output"}` };
}
