// spec: session table rows `work` and `git` - one scan, porcelain v2 + numstat, real repos.
import { deepStrictEqual, match, strictEqual as equal } from "node:assert/strict";
import { scanTree } from "./scan.ts";
import {
  cleanup,
  COMMIT_TIME,
  commitAll,
  featureTree,
  g,
  initRepo,
  lines,
  tempDir,
  write,
} from "../../tests/review_support.ts";

Deno.test("scan: a branch ahead of a bare origin states every field of work and git", async () => {
  const dir = await tempDir();
  try {
    const tree = await featureTree(dir);
    const s = await scanTree(tree);
    deepStrictEqual(s.work, { branch: "feature", changed: 5, gate: "in_repo" });
    const git = s.git!;
    equal(git.default_branch, "main");
    deepStrictEqual(git.worktree, {
      // busiest first (added + removed), ties by path
      files: [
        { path: "staged.txt", added: 4, removed: 0, status: "added" },
        { path: "doomed.txt", added: 0, removed: 3, status: "deleted" },
        { path: "ty.txt", added: 1, removed: 2, status: "typechange" },
        { path: "u.txt", added: 3, removed: 0, status: "untracked" },
        { path: "a.txt", added: 1, removed: 1, status: "modified" },
      ],
      total_files: 5,
      total_added: 9,
      total_removed: 6,
    });
    const ahead = git.ahead!;
    equal(ahead.commit_count, 2);
    equal(ahead.commits.length, 2);
    const [second, first] = ahead.commits;
    const shortHead = (await g(tree, "rev-parse", "--short", "HEAD")).trim();
    const shortPrev = (await g(tree, "rev-parse", "--short", "HEAD~1")).trim();
    deepStrictEqual(second, {
      sha: shortHead,
      subject: "add binary",
      committed: COMMIT_TIME,
      stats: {
        files: [
          { path: "a.txt", added: 2, removed: 0, status: "modified" },
          { path: "bin.dat", added: 0, removed: 0, status: "added" },
        ],
        total_files: 2,
        total_added: 2,
        total_removed: 0,
      },
    });
    deepStrictEqual(first, {
      sha: shortPrev,
      subject: "rename old",
      committed: COMMIT_TIME,
      stats: {
        files: [{ path: "new.txt", added: 0, removed: 0, status: "renamed" }],
        total_files: 1,
        total_added: 0,
        total_removed: 0,
      },
    });
    deepStrictEqual(ahead.stats, {
      files: [
        { path: "a.txt", added: 2, removed: 0, status: "modified" },
        { path: "bin.dat", added: 0, removed: 0, status: "added" },
        { path: "new.txt", added: 0, removed: 0, status: "renamed" },
      ],
      total_files: 3,
      total_added: 2,
      total_removed: 0,
    });
    // No base store: nothing has measured the base yet.
    equal(git.base, null);
    equal(git.base_error, null);
    equal(s.facts.base_ref, "refs/remotes/origin/main");
    deepStrictEqual(s.facts.base, {
      cwd: tree,
      branch: "main",
      remote: "origin",
      remote_tracking: true,
    });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("scan: stats blocks cap the busiest files at seven and keep full totals", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    for (let i = 1; i <= 10; i++) await write(`${repo}/f${i}.txt`, "x\n");
    await commitAll(repo, "base");
    for (let i = 1; i <= 10; i++) await write(`${repo}/f${i}.txt`, lines(i + 1, "y"));
    const s = await scanTree(repo);
    const wt = s.git!.worktree!;
    equal(wt.files.length, 7);
    equal(wt.total_files, 10);
    deepStrictEqual(wt.files.map((f) => f.path), [
      "f10.txt",
      "f9.txt",
      "f8.txt",
      "f7.txt",
      "f6.txt",
      "f5.txt",
      "f4.txt",
    ]);
    equal(wt.total_added, [...Array(10)].reduce((n, _, i) => n + i + 2, 0));
    equal(wt.total_removed, 10);
    // On main with no remote: the local base has nothing to be ahead of.
    equal(s.git!.ahead, null);
    equal(s.facts.base_ref, null);
    deepStrictEqual(s.facts.base, {
      cwd: repo,
      branch: "main",
      remote: "origin",
      remote_tracking: false,
    });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("scan: an unmerged merge states the file unmerged", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/m`);
    await write(`${repo}/c.txt`, "base\n");
    await commitAll(repo, "base");
    await g(repo, "checkout", "-q", "-b", "side");
    await write(`${repo}/c.txt`, "side\n");
    await commitAll(repo, "side");
    await g(repo, "checkout", "-q", "main");
    await write(`${repo}/c.txt`, "main\n");
    await commitAll(repo, "main");
    await g(repo, "merge", "side").catch(() => {}); // conflicts by design
    const s = await scanTree(repo);
    deepStrictEqual(s.work, { branch: "main", changed: 1, gate: "in_repo" });
    deepStrictEqual(s.git!.worktree!.files, [{
      path: "c.txt",
      added: 4,
      removed: 0,
      status: "unmerged",
    }]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("scan: gates - not a repository, gone, unborn and detached", async () => {
  const dir = await tempDir();
  try {
    await Deno.mkdir(`${dir}/plain`);
    const plain = await scanTree(`${dir}/plain`);
    deepStrictEqual(plain.work, { branch: null, changed: null, gate: "not_a_repository" });
    equal(plain.git, null);
    deepStrictEqual((await scanTree(`${dir}/missing`)).work.gate, "gone");
    await write(`${dir}/file`, "x");
    deepStrictEqual((await scanTree(`${dir}/file`)).work.gate, "gone");

    const unborn = await initRepo(`${dir}/unborn`);
    await write(`${unborn}/new.txt`, "1\n2\n");
    await write(`${unborn}/staged.txt`, "s\n");
    await g(unborn, "add", "staged.txt");
    const u = await scanTree(unborn);
    deepStrictEqual(u.work, { branch: "main", changed: 2, gate: "in_repo" });
    equal(u.facts.head, null);
    equal(u.git!.default_branch, null); // no main ref exists yet
    deepStrictEqual(u.git!.worktree!.files, [
      { path: "new.txt", added: 2, removed: 0, status: "untracked" },
      { path: "staged.txt", added: 1, removed: 0, status: "added" },
    ]);

    const det = await initRepo(`${dir}/det`);
    await write(`${det}/a`, "a\n");
    await commitAll(det, "one");
    await write(`${det}/a`, "b\n");
    await commitAll(det, "two");
    await g(det, "checkout", "-q", "--detach", "HEAD~1");
    const d = await scanTree(det);
    deepStrictEqual(d.work, { branch: null, changed: 0, gate: "in_repo" });
    equal(d.git!.worktree, null);
    // Detached behind main: nothing ahead of the local default.
    equal(d.git!.ahead, null);
    equal(d.facts.has_branch_layer, false);
    match(d.facts.head!, /^[0-9a-f]{40}$/);
  } finally {
    await cleanup(dir);
  }
});
