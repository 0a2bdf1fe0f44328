// spec: session table row `diff` - two layers, raw lines, caps flagged; "What is not here":
// commit_diff on demand.
import { deepStrictEqual, ok, strictEqual as equal } from "node:assert/strict";
import { commitDiff, readDiff } from "./diff.ts";
import { FILE_BYTE_CAP, FILE_LINE_CAP, READ_BYTE_CAP, READ_FILE_CAP } from "./diff_parse.ts";
import { scanTree } from "./scan.ts";
import {
  cleanup,
  commitAll,
  exists,
  featureTree,
  g,
  initRepo,
  lines,
  tempDir,
  write,
} from "../../tests/review_support.ts";
import type { DiffContent, DiffFile, DiffLayer, LayerState } from "./wire.ts";

const UNVERIFIED = { base: "unverified" as const, base_error: null };

function layer(l: LayerState | null): DiffLayer {
  if (l === null || typeof l === "string") throw new Error(`layer is ${l}, not populated`);
  return l.populated;
}

function file(l: DiffLayer, path: string): DiffFile {
  const f = l.files.find((x) => x.path === path);
  if (!f) throw new Error(`${path} not in ${l.files.map((x) => x.path)}`);
  return f;
}

async function record(tree: string): Promise<DiffContent> {
  return readDiff(tree, await scanTree(tree), UNVERIFIED);
}

Deno.test("diff: both layers carry every file with paths, status, flags and numbered lines", async () => {
  const dir = await tempDir();
  try {
    const tree = await featureTree(dir);
    const d = await record(tree);
    equal(d.base, "unverified");
    equal(d.base_error, null);
    const wt = layer(d.worktree);
    deepStrictEqual(
      { total: wt.total_files, files: wt.files_capped, bytes: wt.bytes_capped },
      { total: 5, files: false, bytes: false },
    );
    deepStrictEqual(file(wt, "a.txt"), {
      path: "a.txt",
      old_path: null,
      status: "modified",
      binary: false,
      submodule: false,
      truncated: false,
      lines: [
        { kind: "hunk", text: "@@ -1,4 +1,4 @@", old_line: 1, new_line: 1 },
        { kind: "removed", text: "line 1", old_line: 1, new_line: null },
        { kind: "added", text: "LINE 1", old_line: null, new_line: 1 },
        { kind: "context", text: "line 2", old_line: 2, new_line: 2 },
        { kind: "context", text: "line 3", old_line: 3, new_line: 3 },
        { kind: "context", text: "line 4", old_line: 4, new_line: 4 },
      ],
    });
    const doomed = file(wt, "doomed.txt");
    equal(doomed.status, "deleted");
    deepStrictEqual(doomed.lines.map((l) => [l.kind, l.old_line, l.new_line]), [
      ["hunk", 1, 0],
      ["removed", 1, null],
      ["removed", 2, null],
      ["removed", 3, null],
    ]);
    equal(file(wt, "staged.txt").status, "added");
    deepStrictEqual(file(wt, "staged.txt").lines.slice(1).map((l) => l.text), [
      "s 1",
      "s 2",
      "s 3",
      "s 4",
    ]);
    // A typechange arrives as git's deletion + creation, carried as one file.
    const ty = file(wt, "ty.txt");
    equal(ty.status, "typechange");
    deepStrictEqual(ty.lines.filter((l) => l.kind !== "hunk").map((l) => [l.kind, l.text]), [
      ["removed", "line 1"],
      ["removed", "line 2"],
      ["added", "a.txt"],
    ]);
    deepStrictEqual(file(wt, "u.txt"), {
      path: "u.txt",
      old_path: null,
      status: "untracked",
      binary: false,
      submodule: false,
      truncated: false,
      lines: [
        { kind: "hunk", text: "@@ -0,0 +1,3 @@", old_line: 0, new_line: 1 },
        { kind: "added", text: "u 1", old_line: null, new_line: 1 },
        { kind: "added", text: "u 2", old_line: null, new_line: 2 },
        { kind: "added", text: "u 3", old_line: null, new_line: 3 },
      ],
    });

    const br = layer(d.branch_ahead);
    equal(br.total_files, 3);
    deepStrictEqual(file(br, "new.txt"), {
      path: "new.txt",
      old_path: "old.txt",
      status: "renamed",
      binary: false,
      submodule: false,
      truncated: false,
      lines: [],
    });
    deepStrictEqual(file(br, "bin.dat"), {
      path: "bin.dat",
      old_path: null,
      status: "added",
      binary: true,
      submodule: false,
      truncated: false,
      lines: [],
    });
    deepStrictEqual(file(br, "a.txt").lines.map((l) => [l.kind, l.old_line, l.new_line]), [
      ["hunk", 8, 8],
      ["context", 8, 8],
      ["context", 9, 9],
      ["context", 10, 10],
      ["added", null, 11],
      ["added", null, 12],
    ]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("diff: a clean tree on its local default is clean with no branch layer", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/a`, "a\n");
    await commitAll(repo, "one");
    deepStrictEqual(await record(repo), {
      worktree: "clean",
      branch_ahead: null,
      base: null,
      base_error: null,
    });
    await Deno.mkdir(`${dir}/plain`);
    deepStrictEqual((await record(`${dir}/plain`)).worktree, "clean");
    deepStrictEqual((await record(`${dir}/nowhere`)).worktree, "scan_failed");
  } finally {
    await cleanup(dir);
  }
});

Deno.test("diff: a submodule bump is flagged submodule; an unmerged file is unmerged", async () => {
  const dir = await tempDir();
  try {
    const lib = await initRepo(`${dir}/lib`);
    await write(`${lib}/lib.txt`, "v1\n");
    await commitAll(lib, "v1");
    const app = await initRepo(`${dir}/app`);
    await write(`${app}/readme`, "app\n");
    await commitAll(app, "base");
    await g(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
    await commitAll(app, "add lib");
    await g(app, "checkout", "-q", "-b", "bump");
    await write(`${lib}/lib.txt`, "v2\n");
    const v2 = await commitAll(lib, "v2");
    await g(`${app}/lib`, "-c", "protocol.file.allow=always", "pull", "-q", "origin", "main");
    await commitAll(app, "bump lib");
    const d = await record(app);
    equal(d.worktree, "clean");
    const sub = file(layer(d.branch_ahead), "lib");
    equal(sub.submodule, true);
    equal(sub.status, "modified");
    equal(sub.binary, false);
    deepStrictEqual(sub.lines.filter((l) => l.kind === "added").map((l) => l.text), [
      `Subproject commit ${v2}`,
    ]);

    const m = await initRepo(`${dir}/m`);
    await write(`${m}/c.txt`, "base\n");
    await commitAll(m, "base");
    await g(m, "checkout", "-q", "-b", "side");
    await write(`${m}/c.txt`, "side\n");
    await commitAll(m, "side");
    await g(m, "checkout", "-q", "main");
    await write(`${m}/c.txt`, "main\n");
    await commitAll(m, "main");
    await g(m, "merge", "side").catch(() => {});
    const c = file(layer((await record(m)).worktree), "c.txt");
    equal(c.status, "unmerged");
    deepStrictEqual(c.lines.map((l) => l.text), [
      "@@ -1 +1,5 @@",
      "<<<<<<< HEAD",
      "main",
      "=======",
      "side",
      ">>>>>>> side",
    ]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("diff: per-file line and byte caps and the read's byte and file caps are flagged", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/seed`, "seed\n");
    await commitAll(repo, "base");
    await write(`${repo}/many.txt`, lines(1000)); // 1001 lines: the 400-line cap bites
    await write(`${repo}/wide.txt`, lines(300, "w".repeat(200))); // ~61 KiB: the 32 KiB cap bites
    await write(`${repo}/small.txt`, "fine\n");
    await g(repo, "add", "-A");
    let d = await record(repo);
    let wt = layer(d.worktree);
    const many = file(wt, "many.txt");
    equal(many.truncated, true);
    equal(many.lines.length, FILE_LINE_CAP);
    const wide = file(wt, "wide.txt");
    equal(wide.truncated, true);
    const wideBytes = wide.lines.reduce((n, l) => n + new TextEncoder().encode(l.text).length, 0);
    ok(wideBytes <= FILE_BYTE_CAP && wideBytes > FILE_BYTE_CAP - 300, `wide carried ${wideBytes}`);
    equal(file(wt, "small.txt").truncated, false);
    equal(wt.bytes_capped, false);
    equal(wt.files_capped, false);
    await g(repo, "commit", "-q", "-m", "big");

    // 120 files of ~30 KiB each: the read's 512 KiB runs out, then its 100-file cap.
    for (let i = 0; i < 120; i++) {
      await write(`${repo}/f${String(i).padStart(3, "0")}.txt`, lines(150, "z".repeat(190)));
    }
    // f000..f099 staged (git's patch path), f100..f119 untracked (the read-it-ourselves path).
    for (let i = 0; i < 100; i++) await g(repo, "add", `f${String(i).padStart(3, "0")}.txt`);
    d = await record(repo);
    wt = layer(d.worktree);
    equal(wt.total_files, 120);
    equal(wt.files[99].path, "f099.txt");
    equal(wt.files.length, READ_FILE_CAP);
    equal(wt.files_capped, true);
    equal(wt.bytes_capped, true);
    const carried = wt.files.reduce(
      (n, f) => n + f.lines.reduce((m, l) => m + l.text.length, 0),
      0,
    );
    ok(carried <= READ_BYTE_CAP, `carried ${carried}`);
    ok(wt.files[0].lines.length > 0 && !wt.files[0].truncated);
    const last = wt.files[wt.files.length - 1];
    deepStrictEqual([last.truncated, last.lines.length], [true, 0]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("commit_diff: one commit's diff in the layer shape; option-shaped shas fail as revisions", async () => {
  const dir = await tempDir();
  try {
    const tree = await featureTree(dir);
    const rename = await commitDiff(tree, "HEAD~1");
    if (!rename.ok) throw new Error(rename.why);
    equal(rename.commit, (await g(tree, "rev-parse", "HEAD~1")).trim());
    const l = layer(rename.diff);
    deepStrictEqual(l.files.map((f) => [f.path, f.old_path, f.status]), [[
      "new.txt",
      "old.txt",
      "renamed",
    ]]);
    const root = await commitDiff(
      tree,
      (await g(tree, "rev-list", "--max-parents=0", "HEAD")).trim(),
    );
    if (!root.ok) throw new Error(root.why);
    equal(layer(root.diff).total_files, 5);
    for (const bad of ["--output=x", "-o", "HEAD:../x", "nope", "", "HEAD\n--output=x"]) {
      const r = await commitDiff(tree, bad);
      equal(r.ok, false, `${bad} should fail`);
      if (!r.ok) ok(r.why.includes(JSON.stringify(bad)), r.why);
    }
    equal(await exists(`${tree}/x`), false);
    equal(await exists(`${dir}/x`), false);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("diff: a staged rename, spaces, non-ASCII and a tab in paths keep their own lines", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/a.txt`, lines(20, "a"));
    await write(`${repo}/dir with space/ü file.txt`, "one\n");
    await commitAll(repo, "base");
    await g(repo, "mv", "a.txt", "b.txt");
    await write(`${repo}/b.txt`, lines(20, "a").replace("a 20\n", "a twenty\n"));
    await g(repo, "add", "b.txt");
    await write(`${repo}/dir with space/ü file.txt`, "two\n");
    await write(`${repo}/tab\there.txt`, "tabbed\n");
    await g(repo, "add", "tab\there.txt");
    const s = await scanTree(repo);
    deepStrictEqual(s.facts.entries.map((e) => [e.path, e.old_path, e.status]), [
      ["b.txt", "a.txt", "renamed"],
      ["dir with space/ü file.txt", null, "modified"],
      ["tab\there.txt", null, "added"],
    ]);
    deepStrictEqual(s.git!.worktree!.files.map((f) => [f.path, f.added, f.removed, f.status]), [
      ["b.txt", 1, 1, "renamed"],
      ["dir with space/ü file.txt", 1, 1, "modified"],
      ["tab\there.txt", 1, 0, "added"],
    ]);
    const wt = layer((await readDiff(repo, s, UNVERIFIED)).worktree);
    deepStrictEqual(
      wt.files.map((f) => [
        f.path,
        f.old_path,
        f.lines.filter((l) => l.kind !== "context").map((l) => l.text),
      ]),
      [
        ["b.txt", "a.txt", ["@@ -17,4 +17,4 @@ a 16", "a 20", "a twenty"]],
        ["dir with space/ü file.txt", null, ["@@ -1 +1 @@", "one", "two"]],
        ["tab\there.txt", null, ["@@ -0,0 +1 @@", "tabbed"]],
      ],
    );
  } finally {
    await cleanup(dir);
  }
});
