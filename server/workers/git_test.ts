// agents__despawn, as the original forge's `agents` family has it: the dirty-tree block
// (uncommitted, untracked, unpushed) and the branch clean-up rule (deleted only when every commit
// is reachable from another ref), on real git repositories.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import {
  addWorktree,
  deleteBranchIfMerged,
  git,
  headOf,
  removeWorktree,
  unsavedWork,
} from "./git.ts";
import { checkFamilies, checkLabel } from "./rules.ts";

const ID = ["-c", "user.name=t", "-c", "user.email=t@t"];

async function repo(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-workers-git-" }));
  await git(dir, ["init", "-q", "-b", "main"]);
  await Deno.writeTextFile(`${dir}/a`, "a\n");
  await git(dir, ["add", "."]);
  await git(dir, [...ID, "commit", "-q", "-m", "a"]);
  return dir;
}

Deno.test("a worktree on worktree-<label> from HEAD; clean until a file, a change or an unreached commit", async () => {
  const dir = await repo();
  const tree = `${dir}-w1`;
  try {
    const head = await headOf(dir);
    assert("sha" in head);
    assertEquals(await addWorktree(dir, tree, "w1", head.sha), { madeBranch: true });
    assertEquals(
      (await git(tree, ["rev-parse", "--abbrev-ref", "HEAD"])).out.trim(),
      "worktree-w1",
    );
    assertEquals(await unsavedWork(dir, tree, "w1"), null);
    await Deno.writeTextFile(`${tree}/new`, "n\n");
    assertMatch((await unsavedWork(dir, tree, "w1"))!, /1 untracked file/);
    await git(tree, ["add", "."]);
    assertMatch((await unsavedWork(dir, tree, "w1"))!, /1 uncommitted change/);
    await git(tree, [...ID, "commit", "-q", "-m", "n"]);
    assertMatch((await unsavedWork(dir, tree, "w1"))!, /1 commit on worktree-w1 that no other/);
    // Unreached: the branch stays after the worktree goes, and says why.
    assertEquals(await removeWorktree(dir, tree), null);
    assertMatch((await deleteBranchIfMerged(dir, "w1"))!, /kept: 1 commit on it no other/);
    // Merged into main: now every commit is reachable, so the branch goes.
    await git(dir, ["merge", "-q", "--ff-only", "worktree-w1"]);
    assertEquals(await deleteBranchIfMerged(dir, "w1"), null);
    assertEquals((await git(dir, ["branch", "--list", "worktree-w1"])).out.trim(), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(tree, { recursive: true }).catch(() => {});
  }
});

Deno.test("a project that is not a repository, or has no commit, is named as such", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-workers-norepo-" });
  try {
    assertMatch((await headOf(dir) as { why: string }).why, /is not a git repository/);
    await git(dir, ["init", "-q"]);
    assertMatch((await headOf(dir) as { why: string }).why, /has no commit yet/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("labels and families are refused in words: empty, reserved, unsafe, always-on, unknown", () => {
  const words = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return (err as Error).message;
    }
    return "accepted";
  };
  assertMatch(words(() => checkLabel("agents__spawn", "  ")), /label is empty/);
  assertMatch(words(() => checkLabel("agents__spawn", "lead")), /`lead` is reserved/);
  assertMatch(words(() => checkLabel("agents__spawn", "../x")), /must be letters, digits/);
  assertEquals(checkLabel("agents__spawn", " w1 "), "w1");
  assertMatch(words(() => checkFamilies("x", ["agents"])), /always on for every worker/);
  assertMatch(words(() => checkFamilies("x", ["browser"])), /always on for every session/);
  assertMatch(words(() => checkFamilies("x", ["mail"])), /pick from review, cron/);
  assertEquals(checkFamilies("x", ["tasks", "review", "tasks"]), ["review", "tasks"]);
  assertEquals(checkFamilies("x", []), null);
});
