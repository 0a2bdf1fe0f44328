// A layer's patch is parsed as git writes it; one that reaches the read cap is counted by git's
// numstat instead - no patch, no files - and the chunk that reaches the cap is not parsed. The
// runner's own `maxBytes` is the cap here, so no test writes 256 MiB. With a record read's budget
// its files are parsed too, from where the read will stand at the layer, known at once or later.
import { deepStrictEqual, ok, strictEqual as equal } from "node:assert/strict";
import { budgetCopy, DiffBudget } from "./diff_parse.ts";
import { diffArgs, diffLayer } from "./diff_layer.ts";
import { git } from "./git.ts";
import { parseDiff } from "./patch_stream.ts";
import { cleanup, commitAll, initRepo, lines, tempDir, write } from "../../tests/review_support.ts";

/** A repo whose worktree changes 8 text files (~140 KiB of patch), a binary one and a deletion. */
async function changedTree(dir: string): Promise<string> {
  const repo = await initRepo(`${dir}/r`);
  for (let i = 0; i < 8; i++) await write(`${repo}/f${i}.txt`, lines(2000, `f${i}`));
  await write(`${repo}/bin.dat`, new Uint8Array([0, 1, 2]));
  await write(`${repo}/gone.txt`, lines(3));
  await commitAll(repo, "base");
  for (let i = 0; i < 8; i++) {
    await write(`${repo}/f${i}.txt`, lines(2000, `f${i}`).replaceAll("0\n", `${i}-changed\n`));
  }
  await write(`${repo}/bin.dat`, new Uint8Array([0, 9, 9, 9]));
  await Deno.remove(`${repo}/gone.txt`);
  return repo;
}

Deno.test("diff layer: a patch at or over the cap is counted by numstat, under it parsed", async () => {
  const dir = await tempDir();
  try {
    // ~140 KiB of patch: more than a pipe holds, so the cap lands after several chunks.
    const repo = await changedTree(dir);

    const whole = await diffLayer(repo, "HEAD", { rows: new DiffBudget() });
    equal(whole.code, 0);
    const size = whole.patch!.length;
    ok(size > 128 * 1024, `the patch is ${size} bytes`);
    deepStrictEqual(
      whole.stats.map((s) => [s.path, s.status, s.added, s.removed]),
      [
        ["bin.dat", "modified", 0, 0],
        ...Array.from({ length: 8 }, (_, i) => [`f${i}.txt`, "modified", 200, 200]),
        ["gone.txt", "deleted", 0, 3],
      ],
    );
    // Reaching the cap (at it, a byte short of the patch, mid-way, inside the raw header) is
    // numstat's answer: the same stats, no patch, no files.
    for (const cap of [size, size - 1, Math.floor(size / 2), 10]) {
      const capped = await diffLayer(repo, "HEAD", { rows: new DiffBudget(), cap });
      deepStrictEqual(capped, { code: 0, stats: whole.stats, patch: null, rows: null }, `${cap}`);
    }
    // A byte of room to spare: every chunk is parsed, as with no cap at all.
    const under = await diffLayer(repo, "HEAD", { rows: new DiffBudget(), cap: size + 1 });
    deepStrictEqual(under, whole);
    // A failed diff is failed, capped or not.
    const bad = await diffLayer(repo, "no-such-ref", { cap: 10 });
    deepStrictEqual([bad.code !== 0, bad.stats, bad.patch, bad.rows], [true, [], null, null]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("diff layer: files parsed from a start still on its way are those parsed from it at once", async () => {
  const dir = await tempDir();
  try {
    const repo = await changedTree(dir);
    const patch = (await git(repo, diffArgs("HEAD", "patch"))).stdout;
    // Where the read stands at this layer: nothing spent, some files and bytes spent, and only
    // one file left.
    for (const [files, bytes] of [[0, 0], [3, 1000], [9, 0]]) {
      const read = new DiffBudget(10, 8 * 1024);
      const at = budgetCopy(read);
      Object.assign(at, { files, bytes });
      const now = await diffLayer(repo, "HEAD", { rows: read, from: at });
      // The files and spend a parse of the whole patch from `at` gives.
      const after = budgetCopy(at);
      deepStrictEqual(now.rows!.parsed, parseDiff(patch, after));
      deepStrictEqual(now.rows!.spent, after);
      deepStrictEqual([now.rows!.budget, now.rows!.files, now.rows!.bytes], [read, files, bytes]);
      deepStrictEqual([read.files, read.bytes], [0, 0], "the read's own budget is not spent");
      // The start known only once a whole diff of the tree has run again, by when git has most
      // likely written its output: what it wrote waited, and the answer is the same.
      const gate = Promise.withResolvers<DiffBudget | undefined>();
      const later = diffLayer(repo, "HEAD", { rows: read, from: gate.promise });
      await git(repo, diffArgs("HEAD", "patch"));
      gate.resolve(at);
      deepStrictEqual(await later, now);
    }
    // A start that turns out unknown: the stats alone, no files.
    const gate = Promise.withResolvers<DiffBudget | undefined>();
    const none = diffLayer(repo, "HEAD", { rows: new DiffBudget(), from: gate.promise });
    gate.resolve(undefined);
    const plain = await diffLayer(repo, "HEAD");
    deepStrictEqual(await none, { ...plain, rows: null });
  } finally {
    await cleanup(dir);
  }
});
