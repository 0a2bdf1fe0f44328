// The runner hands each stdout chunk to `onChunk` as it arrives; what it hands over is the
// output it returns, and a sink that throws is rethrown once the run has ended.
import { deepStrictEqual, rejects, strictEqual as equal } from "node:assert/strict";
import { concat, git } from "./git.ts";
import { cleanup, commitAll, initRepo, lines, tempDir, write } from "../../tests/review_support.ts";

Deno.test("git: onChunk sees the stdout it returns, within the read cap", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    // ~290 KiB: more than a pipe holds, so it arrives in several chunks.
    await write(`${repo}/a.txt`, lines(30000));
    await commitAll(repo, "base");
    const seen: Uint8Array[] = [];
    const r = await git(repo, ["show", "HEAD:a.txt"], { onChunk: (c) => seen.push(c.slice()) });
    equal(r.code, 0);
    equal(seen.length > 1, true, "the output came in more than one chunk");
    deepStrictEqual(concat(seen, r.stdout.length), r.stdout);
    const capped: Uint8Array[] = [];
    const cut = await git(repo, ["show", "HEAD:a.txt"], {
      maxBytes: 1000,
      onChunk: (c) => capped.push(c.slice()),
    });
    equal(cut.oversize, true);
    deepStrictEqual(concat(capped, 1000), cut.stdout);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("git: a sink that throws is not called again and its error is rethrown", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/a.txt`, lines(30000));
    await commitAll(repo, "base");
    let calls = 0;
    await rejects(
      git(repo, ["show", "HEAD:a.txt"], {
        onChunk: () => {
          calls++;
          throw new Error("the sink broke");
        },
      }),
      /the sink broke/,
    );
    equal(calls, 1);
  } finally {
    await cleanup(dir);
  }
});
