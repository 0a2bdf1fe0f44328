/**
 * The git a worker's worktree needs (the original's agents__spawn / agents__despawn):
 * a worktree on its own branch made from the lead's HEAD, what would be lost by removing it, and
 * the branch clean-up rule. Real git, run as a child process; every failure is git's own first
 * line inside forge's sentence.
 */
import { ioWords } from "../state/words.ts";

/** Runs git in `cwd`; answers its exit, stdout and stderr (never throws for a non-zero exit). */
export async function git(
  cwd: string,
  args: string[],
): Promise<{ ok: boolean; out: string; err: string }> {
  try {
    const res = await new Deno.Command("git", {
      args,
      cwd,
      stdout: "piped",
      stderr: "piped",
      env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    }).output();
    const dec = new TextDecoder();
    return { ok: res.success, out: dec.decode(res.stdout), err: dec.decode(res.stderr).trim() };
  } catch (err) {
    return { ok: false, out: "", err: (err as Error).message };
  }
}

/** The first line of git's complaint, for a sentence. */
function firstLine(text: string): string {
  return text.split("\n").find((l) => l.trim())?.trim() ?? "git gave no reason";
}

/** The branch a worker's worktree is on: `worktree-<label>`, as the original names it. */
export function branchOf(label: string): string {
  return `worktree-${label}`;
}

async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await git(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).ok;
}

/** The repository's HEAD commit, or a sentence why there is none (not a repo, no commit). */
export async function headOf(repo: string): Promise<{ sha: string } | { why: string }> {
  const res = await git(repo, ["rev-parse", "--verify", "HEAD"]);
  if (res.ok) return { sha: res.out.trim() };
  const inRepo = await git(repo, ["rev-parse", "--git-dir"]);
  return {
    why: inRepo.ok
      ? `${repo} has no commit yet for a worker's branch to start from`
      : `${repo} is not a git repository (a worker runs in a git worktree of its project)`,
  };
}

/**
 * Makes the worktree at `path` on `worktree-<label>`: a new branch at `head`, or the existing
 * branch when a previous worker left it. Answers whether the branch was made here (so a failed
 * spawn removes only what it made), or a sentence.
 */
export async function addWorktree(
  repo: string,
  path: string,
  label: string,
  head: string,
): Promise<{ madeBranch: boolean } | { why: string }> {
  const branch = branchOf(label);
  // A worktree whose directory went away is still registered until pruned; a re-add needs it gone.
  await git(repo, ["worktree", "prune"]);
  const exists = await branchExists(repo, branch);
  const args = exists
    ? ["worktree", "add", path, branch]
    : ["worktree", "add", "-b", branch, path, head];
  const res = await git(repo, args);
  if (!res.ok) return { why: `git worktree add failed: ${firstLine(res.err)}` };
  return { madeBranch: !exists };
}

/**
 * Makes a worker's worktree at `path` from the lead's HEAD, its parent folder first
 * (addWorktree's answer), or the sentence why not: no HEAD to start from, git's refusal, or a
 * folder that could not be made (`unmade`: the folder and the error, for the log).
 */
export async function makeWorktree(
  repo: string,
  path: string,
  label: string,
): Promise<{ madeBranch: boolean } | { why: string; unmade?: { path: string; error: unknown } }> {
  const head = await headOf(repo);
  if ("why" in head) return head;
  const folder = path.replace(/\/[^/]+$/, "");
  try {
    await Deno.mkdir(folder, { recursive: true });
  } catch (error) {
    return {
      why: `forge could not make ${folder}: ${ioWords(error)}`,
      unmade: { path: folder, error },
    };
  }
  return await addWorktree(repo, path, label, head.sha);
}

/** The commits on `branch` that no other branch, tag or remote ref reaches. */
export async function unreachedCommits(repo: string, branch: string): Promise<number | null> {
  const res = await git(repo, [
    "rev-list",
    "--count",
    `refs/heads/${branch}`,
    "--not",
    `--exclude=${branch}`,
    "--branches",
    "--tags",
    "--remotes",
  ]);
  return res.ok ? Number(res.out.trim()) : null;
}

/**
 * What removing the worktree would lose: uncommitted changes, untracked files, commits on its
 * branch nothing else reaches. Null when nothing; else the sentence naming each.
 */
export async function unsavedWork(
  repo: string,
  path: string,
  label: string,
): Promise<string | null> {
  const status = await git(path, ["status", "--porcelain", "--untracked-files=all"]);
  if (!status.ok) return `git status failed in ${path}: ${firstLine(status.err)}`;
  const lines = status.out.split("\n").filter(Boolean);
  const untracked = lines.filter((l) => l.startsWith("??")).length;
  const changed = lines.length - untracked;
  const unreached = await unreachedCommits(repo, branchOf(label));
  const parts: string[] = [];
  if (changed > 0) parts.push(`${changed} uncommitted change${changed === 1 ? "" : "s"}`);
  if (untracked > 0) parts.push(`${untracked} untracked file${untracked === 1 ? "" : "s"}`);
  if (unreached && unreached > 0) {
    parts.push(
      `${unreached} commit${unreached === 1 ? "" : "s"} on ${
        branchOf(label)
      } that no other branch, tag or remote reaches (unpushed)`,
    );
  }
  return parts.length === 0 ? null : parts.join(", ");
}

/** Removes the worktree (forced: its files go); answers null or git's sentence. */
export async function removeWorktree(repo: string, path: string): Promise<string | null> {
  const res = await git(repo, ["worktree", "remove", "--force", path]);
  if (res.ok) return null;
  // A directory git no longer knows as a worktree: removed by hand, then pruned.
  try {
    await Deno.remove(path, { recursive: true });
    await git(repo, ["worktree", "prune"]);
    return null;
  } catch {
    // git's words are the reason: the hand removal only tried again for a worktree git forgot.
    return `the worktree ${path} could not be removed: ${firstLine(res.err)}`;
  }
}

/**
 * The branch clean-up rule: `worktree-<label>` is deleted only when every commit on it is
 * reachable from another ref. Answers null when deleted (or already gone), else why it stayed.
 */
export async function deleteBranchIfMerged(repo: string, label: string): Promise<string | null> {
  const branch = branchOf(label);
  if (!(await branchExists(repo, branch))) return null;
  const unreached = await unreachedCommits(repo, branch);
  if (unreached === null) return `branch ${branch} was kept: git could not tell what reaches it`;
  if (unreached > 0) {
    return `branch ${branch} was kept: ${unreached} commit${
      unreached === 1 ? "" : "s"
    } on it no other branch, tag or remote reaches`;
  }
  const res = await git(repo, ["branch", "-D", branch]);
  return res.ok ? null : `branch ${branch} was kept: ${firstLine(res.err)}`;
}

/** Deletes the branch whatever it holds (a spawn that failed half way, on a branch it made). */
export async function deleteBranch(repo: string, label: string): Promise<void> {
  await git(repo, ["branch", "-D", branchOf(label)]);
}
