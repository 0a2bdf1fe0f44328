// The default-branch refs read from files must say exactly what `git for-each-ref`
// says, in every layout git leaves them: loose, packed, a clone's symbolic origin/HEAD, a linked
// worktree, a dangling symref, an unborn branch.
import { strictEqual as equal } from "node:assert/strict";
import { DEFAULT_REFS, defaultRefs, readRefs, REFS_FORMAT } from "./refs.ts";
import {
  cleanup,
  cloneOfBare,
  commitAll,
  g,
  initRepo,
  tempDir,
  write,
} from "../../tests/review_support.ts";

const gitSays = (root: string) =>
  g(root, "for-each-ref", `--format=${REFS_FORMAT}`, ...DEFAULT_REFS);

async function sameAsGit(root: string, what: string) {
  const said = await gitSays(root);
  equal(await readRefs(root), said, what);
  equal((await defaultRefs(root)).out, said, what);
}

Deno.test("refs: files read like for-each-ref in every layout git leaves", async () => {
  const dir = await tempDir();
  try {
    const unborn = await initRepo(`${dir}/unborn`);
    await sameAsGit(unborn, "unborn: no refs at all");
    equal(await readRefs(unborn), "");

    const local = await initRepo(`${dir}/local`);
    await write(`${local}/a.txt`, "a\n");
    await commitAll(local, "one");
    await sameAsGit(local, "one loose branch");
    await g(local, "branch", "master");
    await g(local, "pack-refs", "--all");
    await write(`${local}/b.txt`, "b\n");
    await commitAll(local, "two"); // main loose again, newer than its packed line
    await sameAsGit(local, "packed master, loose main shadowing its packed line");

    const { tree } = await cloneOfBare(`${dir}/c`, { "x.txt": "x\n" });
    await sameAsGit(tree, "a clone: symbolic origin/HEAD to a packed origin/main");
    const said = await gitSays(tree);
    equal(said.split("\n").filter(Boolean).length, 3, "origin/HEAD, origin/main, main");

    await g(tree, "worktree", "add", "-q", `${dir}/linked`, "-b", "side");
    await sameAsGit(`${dir}/linked`, "a linked worktree reads the common dir's refs");

    await g(tree, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone");
    await sameAsGit(tree, "a dangling origin/HEAD is skipped");
  } finally {
    await cleanup(dir);
  }
});

Deno.test("refs: what the files cannot say for certain is asked of git", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/a.txt`, "a\n");
    await commitAll(repo, "one");
    // A reftable repository keeps its refs in binary tables: the file reader steps aside.
    await Deno.mkdir(`${repo}/.git/reftable`);
    equal(await readRefs(repo), null);
    await Deno.remove(`${repo}/.git/reftable`);
    // A ref file that holds neither an oid nor a symref.
    await Deno.writeTextFile(`${repo}/.git/refs/heads/master`, "garbage\n");
    equal(await readRefs(repo), null);
    await Deno.remove(`${repo}/.git/refs/heads/master`);
    // A symref climbing out of the refs is not followed by the file reader.
    await Deno.writeTextFile(`${repo}/.git/refs/heads/master`, "ref: refs/../../config\n");
    equal(await readRefs(repo), null);
    await Deno.remove(`${repo}/.git/refs/heads/master`);
    // A subdirectory has no `.git` of its own: git answers from there.
    await Deno.mkdir(`${repo}/sub`);
    equal(await readRefs(`${repo}/sub`), null);
    equal((await defaultRefs(`${repo}/sub`)).out, await gitSays(repo));
    equal((await defaultRefs(`${dir}`)).code === 0, false, "outside a repository git fails");
  } finally {
    await cleanup(dir);
  }
});
