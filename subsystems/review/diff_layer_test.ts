// A layer's patch is parsed as git writes it; one that reaches the read cap is counted by git's
// numstat instead - no patch, no files - and the chunk that reaches the cap is not parsed. The
// runner's own `maxBytes` is the cap here, so no test writes 256 MiB.
import { deepStrictEqual, ok, strictEqual as equal } from "node:assert/strict";
import { DiffBudget } from "./diff_parse.ts";
import { diffLayer } from "./diff_layer.ts";
import { cleanup, commitAll, initRepo, lines, tempDir, write } from "../../tests/review_support.ts";

Deno.test("diff layer: a patch at or over the cap is counted by numstat, under it parsed", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    for (let i = 0; i < 8; i++) await write(`${repo}/f${i}.txt`, lines(2000, `f${i}`));
    await write(`${repo}/bin.dat`, new Uint8Array([0, 1, 2]));
    await write(`${repo}/gone.txt`, lines(3));
    await commitAll(repo, "base");
    // ~140 KiB of patch: more than a pipe holds, so the cap lands after several chunks.
    for (let i = 0; i < 8; i++) {
      await write(`${repo}/f${i}.txt`, lines(2000, `f${i}`).replaceAll("0\n", `${i}-changed\n`));
    }
    await write(`${repo}/bin.dat`, new Uint8Array([0, 9, 9, 9]));
    await Deno.remove(`${repo}/gone.txt`);

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
