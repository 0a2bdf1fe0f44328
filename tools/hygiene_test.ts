// A clone reads this repository without the tracker or the team's notes beside it: a comment
// cites the spec by its section name (`spec: Reaching it`) or says the why itself, and nothing
// points at files outside the tree. This walks every tracked source and documentation file.
import { deepStrictEqual as assertEquals } from "node:assert/strict";

/** The extensions whose files are source or documentation (fixture data is not). */
const SOURCE = /\.(ts|tsx|js|css|sh|toml|md|html)$|^\.ci\/run$/;

// Built from pieces so this file's own text does not match them.
const ISSUE = new RegExp("\\b" + "issues?" + " #?[0-9]+", "i");
const OUTSIDE = new RegExp("\\.\\./" + "shared\\b|/work" + "/");

/** Each line of `text` that names an issue number or a path outside the repository. */
export function offences(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) =>
    ISSUE.test(line) || OUTSIDE.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []
  );
}

const root = new URL("../", import.meta.url).pathname;

/** Every tracked source file, relative to the repository's root. */
async function trackedSources(): Promise<string[]> {
  const out = await new Deno.Command("git", { args: ["ls-files", "-z"], cwd: root }).output();
  if (!out.success) throw new Error(`git ls-files failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).split("\0").filter((p) => SOURCE.test(p));
}

Deno.test("the matcher catches an issue number and a path outside the repository", () => {
  const sample = [
    "// fine: spec: Reaching it",
    "// see iss" + "ue 12 §4",
    "// Issue" + " 7's two viewers",
    "// read ../" + "shared/spec",
    "// issues: none here",
  ].join("\n");
  assertEquals(offences("x.ts", sample).map((o) => o.split(":")[1]), ["2", "3", "4"]);
});

Deno.test("no tracked source file names an issue number or points outside the repository", async () => {
  const found: string[] = [];
  for (const path of await trackedSources()) {
    // A tracked file deleted in the work tree has nothing to say.
    const text = await Deno.readTextFile(root + path).catch(() => "");
    found.push(...offences(path, text));
  }
  assertEquals(found, []);
});
