// spec: session table, `git` and `diff` rows - an untracked file's line count and its head come
// from one read of it when the count reads it whole; the counts' bounds and the heads' cap stay
// as they were, and the `diff` row a record read carries is the one a separate read gives.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { BaseStore } from "./base.ts";
import { readDiff } from "./diff.ts";
import { FILE_BYTE_CAP } from "./diff_parse.ts";
import { parsePorcelain, type StatusEntry } from "./parse.ts";
import { readRecord } from "./record.ts";
import { scanTree } from "./scan.ts";
import { readUntracked, type UntrackedHead, untrackedHead } from "./untracked.ts";
import { cleanup, commitAll, g, initRepo, tempDir, write } from "../../tests/review_support.ts";

const MIB = 1024 * 1024;

/** `size` bytes of 10-byte lines, the last cut short when `size` is not a multiple of 10. */
function text(size: number): string {
  return "abcdefghi\n".repeat(Math.ceil(size / 10)).slice(0, size);
}

/** Lines in {@link text}`(size)`: one per newline, plus an unterminated last one. */
const linesIn = (size: number) => Math.ceil(size / 10);

/** Runs `fn` counting the opens, whole-file reads and link reads of each path under `root`. */
async function countingReads<T>(
  root: string,
  fn: () => Promise<T>,
): Promise<[T, Map<string, number>]> {
  const reads = new Map<string, number>();
  const seen = (path: string | URL) => {
    const p = String(path);
    if (!p.startsWith(`${root}/`)) return;
    const key = p.slice(root.length + 1);
    reads.set(key, (reads.get(key) ?? 0) + 1);
  };
  const { open, readFile, readLink } = Deno;
  Deno.open = (path, options) => (seen(path), open(path, options));
  Deno.readFile = (path, options) => (seen(path), readFile(path, options));
  Deno.readLink = (path) => (seen(path), readLink(path));
  try {
    return [await fn(), reads];
  } finally {
    Object.assign(Deno, { open, readFile, readLink });
  }
}

Deno.test("untracked: a file is counted and given its head from one read, caps as before", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/seed.txt`, "seed\n");
    await commitAll(repo, "base");
    const sizes: Record<string, number> = {
      "under.txt": FILE_BYTE_CAP - 1,
      "at.txt": FILE_BYTE_CAP,
      "head.txt": FILE_BYTE_CAP + 1, // the head's own length: read whole, not partial
      "over.txt": FILE_BYTE_CAP + 2,
      "mib.txt": MIB, // the count's per-file bound, counted
      "past.txt": MIB + 1, // past it: not counted, its head read on its own
    };
    for (const [path, size] of Object.entries(sizes)) await write(`${repo}/${path}`, text(size));
    await write(`${repo}/empty.txt`, "");
    await write(`${repo}/nonl.txt`, "one\ntwo");
    await write(`${repo}/bin.dat`, new Uint8Array([104, 105, 0, 10, 255, 10]));
    await Deno.symlink("nonl.txt", `${repo}/link`);
    const entries = parsePorcelain(
      await g(repo, "status", "--porcelain=v2", "-z", "--untracked-files=all"),
    ).entries;
    deepStrictEqual(entries.map((e) => [e.path, e.status]), [
      ["at.txt", "untracked"],
      ["bin.dat", "untracked"],
      ["empty.txt", "untracked"],
      ["head.txt", "untracked"],
      ["link", "untracked"],
      ["mib.txt", "untracked"],
      ["nonl.txt", "untracked"],
      ["over.txt", "untracked"],
      ["past.txt", "untracked"],
      ["under.txt", "untracked"],
    ]);

    const [[lines, heads], reads] = await countingReads(repo, async () => {
      const r = readUntracked(repo, entries, 100);
      const heads = new Map<string, UntrackedHead | null>();
      for (const [path, head] of r.heads) heads.set(path, await head);
      return [await r.lines, heads] as const;
    });
    deepStrictEqual(Object.fromEntries(lines), {
      "at.txt": linesIn(FILE_BYTE_CAP),
      "bin.dat": 0,
      "empty.txt": 0,
      "head.txt": linesIn(FILE_BYTE_CAP + 1),
      "link": 0,
      "mib.txt": linesIn(MIB),
      "nonl.txt": 2,
      "over.txt": linesIn(FILE_BYTE_CAP + 2),
      "past.txt": 0,
      "under.txt": linesIn(FILE_BYTE_CAP - 1),
    });
    // Every file read once, a link's target once; nothing read twice.
    deepStrictEqual(Object.fromEntries(reads), Object.fromEntries(entries.map((e) => [e.path, 1])));
    // The heads are the ones a head read on its own gives.
    for (const e of entries) {
      deepStrictEqual(heads.get(e.path), await untrackedHead(repo, e.path), e.path);
    }
    const shape = (h: UntrackedHead | null | undefined) => h && [h.bytes.length, h.partial];
    deepStrictEqual(Object.fromEntries([...heads].map(([p, h]) => [p, shape(h)])), {
      "at.txt": [FILE_BYTE_CAP, false],
      "bin.dat": [6, false],
      "empty.txt": [0, false],
      "head.txt": [FILE_BYTE_CAP + 1, false],
      "link": [8, false],
      "mib.txt": [FILE_BYTE_CAP + 1, true],
      "nonl.txt": [7, false],
      "over.txt": [FILE_BYTE_CAP + 1, true],
      "past.txt": [FILE_BYTE_CAP + 1, true],
      "under.txt": [FILE_BYTE_CAP - 1, false],
    });

    // A record read carries the `diff` row a separate read of the same scan carries.
    const store = new BaseStore();
    const record = await readRecord(repo, { baseStore: store, review: false, hasSession: false });
    const scan = await scanTree(repo);
    deepStrictEqual(record.diff, await readDiff(repo, scan, store.ordinaryRead()));
    deepStrictEqual(record.git, scan.git);
    equal(scan.git!.worktree!.total_added, [...lines.values()].reduce((a, b) => a + b, 0));
  } finally {
    await cleanup(dir);
  }
});

const untracked = (path: string): StatusEntry => ({
  path,
  old_path: null,
  status: "untracked",
  submodule: false,
});

Deno.test("untracked: counting stops at 16 MiB and at 1000 files; heads go on past it", async () => {
  const dir = await tempDir();
  try {
    const names = Array.from({ length: 16 }, (_, i) => `m${String(i).padStart(2, "0")}.txt`);
    for (const name of names) await write(`${dir}/${name}`, text(MIB));
    await write(`${dir}/after.txt`, "after\n");
    const entries = [...names, "after.txt"].map(untracked);
    const r = readUntracked(dir, entries, 17);
    const lines = await r.lines;
    // 16 MiB spent: the file after them is not counted (absent: its stats count 0).
    deepStrictEqual([...lines.keys()], names);
    equal(lines.get("m15.txt"), linesIn(MIB));
    deepStrictEqual(await r.heads.get("after.txt"), {
      bytes: new TextEncoder().encode("after\n"),
      partial: false,
    });
    // No heads asked for: none read.
    equal(readUntracked(dir, entries).heads.size, 0);
    equal(readUntracked(dir, entries, -3).heads.size, 0);

    const small = Array.from({ length: 1001 }, (_, i) => `s/${String(i).padStart(4, "0")}`);
    for (const name of small) await write(`${dir}/${name}`, "x\n");
    const many = await readUntracked(dir, small.map(untracked), 2).lines;
    equal(many.size, 1000);
    equal(many.has(small[1000]), false);
    equal(many.get(small[999]), 1);
  } finally {
    await cleanup(dir);
  }
});
