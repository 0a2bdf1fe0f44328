// A patch is decoded once when every byte is one character; the lines sliced from
// it must be the very lines a decode per line gives - ASCII, a lone invalid byte (U+FFFD either
// way), and, through the per-line path, multi-byte and cut sequences.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { DiffBudget, parseDiff } from "./diff_parse.ts";
import { cleanup, commitAll, initRepo, tempDir, write } from "../../tests/review_support.ts";

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
