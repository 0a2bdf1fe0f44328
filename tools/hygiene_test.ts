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
    "// see iss" + "ue 12 §" + "4",
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

// A citation names a place a reader of this repository can open: the spec by its section name
// (`spec: What a subject carries > board`), or the fact in words ("the original forge's `tasks`
// tool family"). A team document's name, or a numbered section or row of one, points at text the
// repository does not hold. An RFC's section is public, so `RFC 9110 §7.6.1` passes.
const TEAM_CITATION = new RegExp(
  [
    "mcp" + "_tools",
    "(?<!RFC \\d+ )" + "§" + "\\d",
    "catalogue" + "(?:\\s|\\*|//)*\\d",
  ].join("|"),
  "g",
);
/** The files whose comments `teamCitations` reads. */
const CITING = /\.(ts|tsx|md)$/;

/** Each line of `text` that cites a team document by name or by number (a match may span lines). */
export function teamCitations(path: string, text: string): string[] {
  const lines = text.split("\n");
  const at = [...text.matchAll(TEAM_CITATION)].map((m) =>
    text.slice(0, m.index).split("\n").length
  );
  return [...new Set(at)].map((n) => `${path}:${n}: ${lines[n - 1].trim()}`);
}

Deno.test("the citation matcher catches a team document's numbers and lets an RFC's section be", () => {
  const sample = [
    "// spec: What a subject carries > board",
    "// the original's SessionUpdate list",
    "// (catalo" + "gue 2.3 #58)",
    "// mcp" + "_tools.md, the cron family",
    "// DESIGN " + "§" + '4 "Errors"',
    "// RFC 9110 " + "§" + "7.6.1",
    "// every key forge's config catalogue holds",
    "// the original's (catalo" + "gue",
    "// 1.2 rows 41-46)",
  ].join("\n");
  assertEquals(teamCitations("x.ts", sample).map((o) => o.split(":")[1]), ["3", "4", "5", "8"]);
});

Deno.test("no tracked source file cites a team document the repository does not hold", async () => {
  const found: string[] = [];
  for (const path of await trackedSources()) {
    if (!CITING.test(path)) continue;
    const text = await Deno.readTextFile(root + path).catch(() => "");
    found.push(...teamCitations(path, text));
  }
  assertEquals(found, []);
});

// A test judges outcomes; how long something took is a bench's figure (tools/bench/). This
// finds an assertion that reads a duration: a call of an assert function whose arguments read
// `performance.now()` or the CPU clock, subtract from `Date.now()`, or name or subtract a value
// taken from a clock (a start stamp, an elapsed time). Comparing a produced timestamp with the
// time now is an outcome and passes; so does a time limit on a wait, which throws from a helper
// (`until`) or an `if`, saying what never happened.
const ASSERT_CALL = /\b(assert\w*|ok|strictEqual|deepStrictEqual|equal|expect)\s*\(/;
const DURATION_READ = /performance\.now\(\)|process\.cpuUsage|process\.hrtime|Date\.now\(\)\s*-/;
const STAMP = /^\s*(performance\.now\(\)|Date\.now\(\))\s*(\+\s*[\w.]+\s*)?$/;

/** Each line of a test file where an assertion reads a duration. */
export function durationAsserts(path: string, text: string): string[] {
  const stamps = new Set<string>();
  const elapsed = new Set<string>();
  const word = (n: string) => new RegExp(`\\b${n}\\b`);
  const assigned = /\b(?:const|let|var)\s+(\w+)\s*=\s*([^;\n]*)/g;
  for (const [, name, value] of text.matchAll(assigned)) {
    if (STAMP.test(value)) stamps.add(name);
  }
  const minusStamp = (s: string) =>
    [...stamps].some((n) => new RegExp(`\\b${n}\\s*-|-\\s*${n}\\b`).test(s));
  for (const [, name, value] of text.matchAll(assigned)) {
    if (DURATION_READ.test(value) && !STAMP.test(value) || minusStamp(value)) elapsed.add(name);
  }
  const out: string[] = [];
  for (const call of text.matchAll(new RegExp(ASSERT_CALL, "g"))) {
    // The call's arguments, to their closing parenthesis, across lines.
    const start = call.index! + call[0].length;
    let depth = 1;
    let end = start;
    while (end < text.length && depth > 0) {
      const ch = text[end++];
      if (ch === "(") depth++;
      else if (ch === ")") depth--;
    }
    const args = text.slice(start, end - 1);
    const reads = DURATION_READ.test(args) || minusStamp(args) ||
      [...elapsed].some((n) => word(n).test(args));
    if (!reads) continue;
    const line = text.slice(0, call.index!).split("\n").length;
    out.push(`${path}:${line}: ${text.split("\n")[line - 1].trim()}`);
  }
  return out;
}

Deno.test("the duration matcher finds a timed assertion and lets a wait's limit be", () => {
  const sample = [
    "const t0 = performance.now();",
    "const took = performance.now() - t0;",
    "assert(took < 3000, `took ${took}`);",
    "ok(performance.now() - t0 < 200);",
    "const deadline = Date.now() + 60_000;",
    'if (Date.now() > deadline) throw new Error("never came");',
    'assertEquals(frames.length, 3, "three frames");',
    "const before = Date.now();",
    "ok(at >= before + 30_000, `{{now+30s}} became ${at}`);",
    "assert(end - before < 500);",
    "assert(",
    "  took >= 450,",
    ");",
  ].join("\n");
  const lines = durationAsserts("x_test.ts", sample).map((o) => o.split(":")[1]);
  assertEquals(lines, ["3", "4", "10", "11"]);
});

Deno.test("no test asserts a duration", async () => {
  const found: string[] = [];
  for (const path of (await trackedSources()).filter((p) => p.endsWith("_test.ts"))) {
    if (path === "tools/hygiene_test.ts") continue;
    const text = await Deno.readTextFile(root + path).catch(() => "");
    found.push(...durationAsserts(path, text));
  }
  assertEquals(found, []);
});

// Test support (fakes, temp worlds, fixture readers) lives in tests/, never beside product code:
// a product folder holds the product and its *_test.ts files.
Deno.test("no product folder holds a test-support module", async () => {
  const product = /^(server|subsystems|protocol)\//;
  const support = /(^|\/)(testing|test_support|[a-z_]+_support)\.ts$/;
  const found = (await trackedSources()).filter((p) => product.test(p) && support.test(p));
  assertEquals(found, []);
});
