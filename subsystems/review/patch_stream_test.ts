// A layer's patch is parsed as git's stdout chunks arrive: wherever the chunks are cut - in a
// raw record, between the header's two NULs, mid-line, mid-character - the stats, the carried
// files and the budget spent are the ones the whole output pushed at once gives. A region of
// lines is decoded once when every byte is one character; the lines sliced from it must be the
// very lines a decode per line gives - ASCII, a lone invalid byte (U+FFFD either way), and,
// through the per-line path, multi-byte and cut sequences.
import { deepStrictEqual, ok, strictEqual as equal } from "node:assert/strict";
import { DiffBudget } from "./diff_parse.ts";
import { parseDiff, PatchStream } from "./patch_stream.ts";
import {
  cleanup,
  commitAll,
  g,
  initRepo,
  lines,
  tempDir,
  write,
} from "../../tests/review_support.ts";

/** A real `git diff --raw -z -p HEAD` of a tree holding every kind of file section. */
async function mixedPatch(dir: string): Promise<Uint8Array> {
  const r = await initRepo(`${dir}/r`);
  await write(`${r}/a.txt`, lines(20, "a"));
  await write(`${r}/dir with space/ü file.txt`, "one\n");
  await write(`${r}/nonl.txt`, "no newline");
  await write(`${r}/mode.sh`, "echo\n");
  await write(`${r}/bin.dat`, new Uint8Array([0, 1, 2, 3]));
  await write(`${r}/ty.txt`, "x\ny\n");
  await write(`${r}/long.txt`, lines(60));
  await write(`${r}/gone.txt`, lines(4, "g"));
  await commitAll(r, "base");
  await g(r, "mv", "a.txt", "b.txt");
  await write(`${r}/b.txt`, lines(20, "a").replace("a 20\n", "a twenty\n"));
  await g(r, "add", "b.txt");
  await write(`${r}/dir with space/ü file.txt`, "two é 🌍\n");
  await write(`${r}/tab\there.txt`, "tabbed\n"); // a path git quotes in the section header
  await write(`${r}/inv.txt`, new Uint8Array([0x61, 0xff, 0x0a, 0xe2, 0x82, 0x0a]));
  await g(r, "add", "tab\there.txt", "inv.txt");
  await write(`${r}/nonl.txt`, "still no newline\n");
  await Deno.chmod(`${r}/mode.sh`, 0o755);
  await write(`${r}/bin.dat`, new Uint8Array([0, 9, 9, 3, 255]));
  await Deno.remove(`${r}/ty.txt`);
  await Deno.symlink("b.txt", `${r}/ty.txt`); // a typechange: two sections for one entry
  await write(`${r}/long.txt`, lines(60).replaceAll("1\n", "one\n"));
  await Deno.remove(`${r}/gone.txt`);
  const out = await new Deno.Command("git", {
    args: ["diff", "--no-color", "--no-ext-diff", "-M", "--raw", "-z", "-p", "HEAD"],
    cwd: r,
    stdout: "piped",
  }).output();
  return out.stdout;
}

/** The parse of `bytes` pushed in the pieces `cuts` makes, with its budget's spend. */
function parse(bytes: Uint8Array, cuts: number[], caps: [number, number] | null): string {
  const budget = caps ? new DiffBudget(...caps) : null;
  const stream = new PatchStream(budget);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    stream.push(bytes.subarray(at, cut));
    at = cut;
  }
  const { stats, rows } = stream.end();
  return JSON.stringify({ stats, rows, files: budget?.files, bytes: budget?.bytes });
}

// The spec's caps, and caps that bite mid-file and mid-layer.
const CAPS: ([number, number] | null)[] = [null, [100, 512 * 1024], [4, 120]];

Deno.test("patch stream: a real patch cut at every byte parses as the whole", async () => {
  const dir = await tempDir();
  try {
    const patch = await mixedPatch(dir);
    for (const caps of CAPS) {
      const whole = parse(patch, [], caps);
      const parsed = JSON.parse(whole);
      equal(parsed.stats.length, 10, "every entry has its stats");
      if (caps) ok(parsed.rows.files.length > 0, "files are carried");
      for (let cut = 0; cut <= patch.length; cut++) {
        equal(parse(patch, [cut], caps), whole, `cut at ${cut} with caps ${caps}`);
      }
      const bytewise = Array.from({ length: patch.length }, (_, i) => i);
      equal(parse(patch, bytewise, caps), whole, `a byte at a time with caps ${caps}`);
    }
    const rows = JSON.parse(parse(patch, [], [100, 512 * 1024])).rows;
    const file = (path: string) => rows.files.find((f: { path: string }) => f.path === path);
    equal(file("ty.txt").lines.filter((l: { kind: string }) => l.kind === "hunk").length, 2);
    equal(file("bin.dat").binary, true);
    deepStrictEqual(file("inv.txt").lines.slice(1).map((l: { text: string }) => l.text), [
      "a\ufffd",
      "\ufffd",
    ]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("patch stream: many files in many random chunks parse as the whole", async () => {
  const dir = await tempDir();
  try {
    const r = await initRepo(`${dir}/m`);
    for (let i = 0; i < 120; i++) await write(`${r}/f${i}.txt`, lines(40, `f${i}`));
    await commitAll(r, "base");
    for (let i = 0; i < 120; i++) {
      await write(`${r}/f${i}.txt`, lines(40, `f${i}`).replace(`f${i} 7\n`, `é${i}\n`));
    }
    const out = await new Deno.Command("git", {
      args: ["diff", "--no-color", "-M", "--raw", "-z", "-p", "HEAD"],
      cwd: r,
      stdout: "piped",
    }).output();
    const patch = out.stdout;
    // A fixed-seed generator: the same cuts on every run.
    let seed = 41;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (const caps of CAPS) {
      const whole = parse(patch, [], caps);
      for (let run = 0; run < 40; run++) {
        const cuts = Array.from({ length: 1 + next(60) }, () => next(patch.length + 1));
        cuts.sort((a, b) => a - b);
        equal(parse(patch, cuts, caps), whole, `cuts ${cuts} with caps ${caps}`);
      }
      // git's own 4 KiB writes.
      const pages = Array.from(
        { length: Math.floor(patch.length / 4096) },
        (_, i) => 4096 * (i + 1),
      );
      equal(parse(patch, pages, caps), whole);
    }
  } finally {
    await cleanup(dir);
  }
});

Deno.test("patch stream: output with no empty record is all raw records", () => {
  const raw = new TextEncoder().encode(":100644 100644 0000000 0000000 M\0x.txt\0");
  for (let cut = 0; cut <= raw.length; cut++) {
    const { stats, rows } = JSON.parse(parse(raw, [cut], [100, 1024]));
    deepStrictEqual(stats.map((s: { path: string }) => s.path), ["x.txt"]);
    deepStrictEqual([rows.total_files, rows.files[0].lines], [1, []]);
  }
});

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((p) => typeof p === "string" ? [...new TextEncoder().encode(p)] : p),
  );

async function patchOf(before: Uint8Array, after: Uint8Array): Promise<Uint8Array> {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/f.txt`, before);
    await commitAll(repo, "base");
    await write(`${repo}/f.txt`, after);
    // Forced text: git would call a file with an invalid byte binary only past a NUL.
    const out = await new Deno.Command("git", {
      args: ["diff", "--no-color", "--raw", "-z", "-p", "--text", "HEAD"],
      cwd: repo,
      stdout: "piped",
    }).output();
    return out.stdout;
  } finally {
    await cleanup(dir);
  }
}

Deno.test("parseDiff: lines sliced from one decode equal a decode per line", async () => {
  const cases: [string, Uint8Array][] = [
    ["ascii", bytes("one\ntwo\n")],
    ["a lone invalid byte", bytes("a ", [0xff], " b\nc\n")],
    ["multi-byte", bytes("é 🌍\nx\n")],
    ["a cut sequence", bytes("cut ", [0xe2, 0x82], "\nx\n")],
  ];
  for (const [what, after] of cases) {
    const patch = await patchOf(bytes("zero\n"), after);
    const parsed = parseDiff(patch, new DiffBudget());
    const added = parsed.files[0].lines.filter((l) => l.kind === "added").map((l) => l.text);
    const want = new TextDecoder().decode(after).split("\n").slice(0, -1);
    deepStrictEqual(added, want, what);
    equal(parsed.files[0].path, "f.txt");
  }
});
