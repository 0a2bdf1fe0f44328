// spec: client verb file_content and server message file_content - resolved revision first,
// size first, the max_size_mib ceiling answered as truncated lines, failures as state failed.
import { deepStrictEqual, match, strictEqual as equal } from "node:assert/strict";
import { fileContentMessage, readFileContent } from "./file_content.ts";
import {
  cleanup,
  commitAll,
  exists,
  g,
  initRepo,
  lines,
  tempDir,
  write,
} from "../../tests/review_support.ts";

async function repoWithHistory(dir: string): Promise<{ repo: string; first: string }> {
  const repo = await initRepo(`${dir}/r`);
  await write(`${repo}/a.txt`, lines(3));
  await write(`${repo}/src/deep.txt`, "no newline at end");
  await write(`${repo}/bin.dat`, new Uint8Array([1, 0, 2]));
  const first = await commitAll(repo, "one");
  await write(`${repo}/a.txt`, lines(5));
  await commitAll(repo, "two");
  return { repo, first };
}

Deno.test("file_content: whole files at HEAD (null sha) and at an older commit", async () => {
  const dir = await tempDir();
  try {
    const { repo, first } = await repoWithHistory(dir);
    deepStrictEqual(await readFileContent(repo, "a.txt", null), {
      state: "read",
      lines: ["line 1", "line 2", "line 3", "line 4", "line 5"],
      truncated: false,
    });
    deepStrictEqual(await readFileContent(repo, "a.txt", first), {
      state: "read",
      lines: ["line 1", "line 2", "line 3"],
      truncated: false,
    });
    deepStrictEqual(await readFileContent(repo, "a.txt", first.slice(0, 8)), {
      state: "read",
      lines: ["line 1", "line 2", "line 3"],
      truncated: false,
    });
    deepStrictEqual(await readFileContent(repo, "src/deep.txt", "HEAD~1"), {
      state: "read",
      lines: ["no newline at end"],
      truncated: false,
    });
    // The uncommitted worktree is not a revision: null reads the branch tip.
    await write(`${repo}/a.txt`, "dirty\n");
    equal((await readFileContent(repo, "a.txt", null) as { lines: string[] }).lines.length, 5);
    deepStrictEqual(await fileContentMessage({ label: "lead" }, repo, "src/deep.txt", null), {
      session: { label: "lead" },
      path: "src/deep.txt",
      sha: null,
      content: { state: "read", lines: ["no newline at end"], truncated: false },
    });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("file_content: over the ceiling answers the whole lines it reaches, flagged truncated", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/big.txt`, lines(1000)); // ~10.9 KB
    await commitAll(repo, "big");
    const r = await readFileContent(repo, "big.txt", null, 1 / 1024); // a 1 KiB ceiling
    if (r.state !== "read") throw new Error(r.why);
    equal(r.truncated, true);
    const all = lines(1000).split("\n");
    deepStrictEqual(r.lines, all.slice(0, r.lines.length));
    const used = r.lines.reduce((n, l) => n + l.length + 1, 0);
    equal(used <= 1024 && used > 1024 - 10, true, `carried ${used} bytes`);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("file_content: failures answer state failed with the reason naming the ask", async () => {
  const dir = await tempDir();
  try {
    const { repo, first } = await repoWithHistory(dir);
    const why = async (path: string, sha: string | null) => {
      const r = await readFileContent(repo, path, sha);
      if (r.state !== "failed") throw new Error(`${path}@${sha} read`);
      match(r.why, /^file_content: /);
      return r.why;
    };
    match(await why("missing.txt", null), /missing\.txt does not exist at [0-9a-f]{12}/);
    match(await why("src", null), /src at [0-9a-f]{12} is a tree, not a file/);
    match(await why("bin.dat", null), /bin\.dat at [0-9a-f]{12} is a binary file/);
    match(await why("a.txt", "0000000000000000000000000000000000000000"), /does not name a commit/);
    match(await why("a.txt", `${first}:a.txt`), /does not name a commit/);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("file_content: the traversal and injection matrix is refused by name, nothing written", async () => {
  const dir = await tempDir();
  try {
    const { repo } = await repoWithHistory(dir);
    await write(`${dir}/secret.txt`, "outside\n");
    const before = await g(repo, "status", "--porcelain", "--ignored");
    const listing = () => [...Deno.readDirSync(repo)].map((e) => e.name).sort();
    const beforeFiles = listing();
    const cases: [string, string | null, RegExp][] = [
      ["../secret.txt", null, /\.\.\/secret\.txt is outside the working tree/],
      ["/etc/passwd", null, /\/etc\/passwd is outside the working tree/],
      ["src/../../secret.txt", null, /is outside the working tree/],
      ["./a.txt", null, /\.\/a\.txt is outside the working tree/],
      ["a.txt", "--output=x", /"--output=x" is not a revision/],
      ["a.txt", "-o", /"-o" is not a revision/],
      ["a.txt", "HEAD:../x", /"HEAD:\.\.\/x" does not name a commit/],
      ["HEAD:../x", null, /HEAD:\.\.\/x does not exist at/],
      ["a.txt", "--end-of-options", /is not a revision/],
    ];
    for (const [path, sha, want] of cases) {
      const r = await readFileContent(repo, path, sha);
      if (r.state !== "failed") throw new Error(`${path}@${sha} was read`);
      match(r.why, want);
    }
    equal(await exists(`${repo}/x`), false);
    equal(await exists(`${dir}/x`), false);
    equal(await exists("x"), false);
    deepStrictEqual(listing(), beforeFiles);
    equal(await g(repo, "status", "--porcelain", "--ignored"), before);
  } finally {
    await cleanup(dir);
  }
});
