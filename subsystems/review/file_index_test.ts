// spec: session row file_index and update file_index_changed - gitignore honoured, the root's
// .git dropped either way, pokes coalesce, a still tree walked at most once per five seconds,
// a change reported only when the index moved from what readers hold.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { FileIndexer, listFiles, toIndex } from "./file_index.ts";
import { cleanup, commitAll, initRepo, tempDir, write } from "../../tests/review_support.ts";

async function repoTree(dir: string): Promise<string> {
  const repo = await initRepo(`${dir}/r`);
  await write(`${repo}/.gitignore`, "*.log\nbuild/\n");
  await write(`${repo}/src/a.ts`, "a");
  await write(`${repo}/src/deep/b.ts`, "b");
  await write(`${repo}/gone.txt`, "g");
  await commitAll(repo, "base");
  await Deno.remove(`${repo}/gone.txt`);
  await write(`${repo}/new.txt`, "n");
  await write(`${repo}/debug.log`, "ignored");
  await write(`${repo}/build/out.js`, "ignored");
  return repo;
}

Deno.test("file_index: a repository lists tracked and untracked files, honouring gitignore", async () => {
  const dir = await tempDir();
  try {
    const repo = await repoTree(dir);
    deepStrictEqual(await listFiles(repo), [".gitignore", "new.txt", "src/a.ts", "src/deep/b.ts"]);
    // The preference off: ignored files appear, the root's .git still does not.
    deepStrictEqual(await listFiles(repo, false), [
      ".gitignore",
      "build/out.js",
      "debug.log",
      "new.txt",
      "src/a.ts",
      "src/deep/b.ts",
    ]);
    // Scoped to the scan cwd: a subdirectory lists what is under it, relative to it.
    deepStrictEqual(await listFiles(`${repo}/src`), ["a.ts", "deep/b.ts"]);
    deepStrictEqual(toIndex(await listFiles(repo)), {
      entries: {
        ".gitignore": null,
        "new.txt": null,
        src: { entries: { "a.ts": null, deep: { entries: { "b.ts": null } } } },
      },
    });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("file_index: outside a repository a plain walk drops the root .git and follows no symlink", async () => {
  const dir = await tempDir();
  try {
    const plain = `${dir}/plain`;
    await write(`${plain}/.git/HEAD`, "not a repo really");
    await write(`${plain}/a.md`, "a");
    await write(`${plain}/sub/.git/keep`, "nested .git is not the root's");
    await Deno.symlink("/", `${plain}/root-link`);
    deepStrictEqual(await listFiles(plain), ["a.md", "root-link", "sub/.git/keep"]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("file_index: pokes coalesce, a still tree waits five seconds, moves are reported once", async () => {
  const dir = await tempDir();
  try {
    const repo = await repoTree(dir);
    let now = 1_000_000;
    const ix = new FileIndexer(repo, { now: () => now });
    const first = await ix.snapshot();
    equal(ix.walks, 1);
    equal("new.txt" in first.entries, true);
    // Still tree, inside five seconds: no walk, nothing to report.
    equal(await ix.check(), null);
    equal(ix.walks, 1);
    // A write nobody poked about waits for the still-tree walk.
    await write(`${repo}/later.txt`, "l");
    now += 4999;
    equal(await ix.check(), null);
    equal(ix.walks, 1);
    now += 1;
    const moved = await ix.check();
    equal(ix.walks, 2);
    equal(moved !== null && "later.txt" in moved.entries, true);
    equal(await ix.check(), null); // already announced
    // Ten pokes and three concurrent readers: one walk.
    for (let i = 0; i < 10; i++) {
      await write(`${repo}/burst${i}.txt`, "b");
      ix.poke();
    }
    const results = await Promise.all([ix.check(), ix.check(), ix.check()]);
    equal(ix.walks, 3);
    equal(results.filter((r) => r !== null).length, 1);
    // A poke with nothing moved walks but reports nothing.
    ix.poke();
    equal(await ix.check(), null);
    equal(ix.walks, 4);
    // A snapshot is what readers hold: a move it already carried is not news.
    await Deno.remove(`${repo}/later.txt`);
    ix.poke();
    equal("later.txt" in (await ix.snapshot()).entries, false);
    equal(await ix.check(), null);
  } finally {
    await cleanup(dir);
  }
});
