import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join } from "node:path";
import { PriceTable } from "./prices.ts";
import { buildSnapshot, ReportFold } from "./report.ts";
import { recordsOf } from "./packed.ts";
import { poolFile, PoolScanner } from "./scan.ts";
import { readTranscript } from "./transcript.ts";
import { SessionLines, slugFor } from "./sample_lines.ts";

const AT = new Date("2026-12-02T08:00:00Z");

/** A temp tree with two config dirs; removed when `body` ends. */
async function withPool(body: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "usage_scan_" });
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

function session(id: string, cwd: string, input: number, agentId: string | null = null): string {
  return new SessionLines(id, cwd, agentId)
    .prompt("go", AT)
    .message({
      id: `msg_${id}`,
      requestId: `req_${id}`,
      model: "claude-opus-5-5",
      at: AT,
      input,
      output: 1,
      cacheCreation: 0,
      cacheRead: 0,
    })
    .text();
}

Deno.test("spec usage: scans <config>/projects/**/*.jsonl of every config dir, subagents included", async () => {
  await withPool(async (root) => {
    const a = join(root, "account-a"), b = join(root, "default");
    const slug = slugFor("/w/app");
    await write(join(a, "projects", slug, "s1.jsonl"), session("s1", "/w/app", 1));
    await write(
      join(a, "projects", slug, "s1", "subagents", "agent-x.jsonl"),
      session("s1", "/w/app", 2, "x"),
    );
    await write(join(a, "projects", slug, "s1", "subagents", "agent-x.meta.json"), "{}");
    await write(join(b, "projects", "-w-other", "s2.jsonl"), session("s2", "/w/other", 4));
    await write(join(b, "sessions", "123.json"), session("s3", "/w/other", 8)); // not a transcript
    const missing = join(root, "never-used"); // no projects/ yet: not an error
    const scanner = new PoolScanner([a, b, a, missing]);
    const scan = await scanner.scan();
    assertEquals(scan.files.map((f) => f.path), [
      join(a, "projects", slug, "s1.jsonl"),
      join(a, "projects", slug, "s1", "subagents", "agent-x.jsonl"),
      join(b, "projects", "-w-other", "s2.jsonl"),
    ]);
    assertEquals(scan.files.map((f) => f.slug), [slug, slug, "-w-other"]);
    assertEquals(scan.files.flatMap((f) => recordsOf(f.packed).map((r) => r.input)), [1, 2, 4]);
    assertEquals(scan.unreadable, []);
    assertEquals([scan.files_read, scan.files_reused], [3, 0]);
  });
});

Deno.test("spec usage: a rescan reads only files whose size or mtime changed", async () => {
  await withPool(async (root) => {
    const p = (name: string) => join(root, "projects", "-w", name);
    await write(p("one.jsonl"), session("one", "/w", 1));
    await write(p("two.jsonl"), session("two", "/w", 2));
    await write(p("three.jsonl"), session("three", "/w", 4));
    const scanner = new PoolScanner([root]);
    assertEquals((await scanner.scan()).files_read, 3);

    const [warm, joined] = await Promise.all([scanner.scan(), scanner.scan()]);
    assertEquals(joined === warm, true, "a scan asked for while one runs shares its answer");
    assertEquals([warm.files_read, warm.files_reused], [0, 3]);
    assertEquals(warm.files.flatMap((f) => recordsOf(f.packed).map((r) => r.input)), [1, 4, 2]);

    // An appended turn changes the size; the new message is counted.
    await Deno.writeTextFile(p("one.jsonl"), session("one-b", "/w", 16), { append: true });
    // Same size, new mtime: read again too.
    await Deno.utime(p("two.jsonl"), new Date(), new Date(Date.now() + 5000));
    await Deno.remove(p("three.jsonl"));
    const after = await scanner.scan();
    assertEquals([after.files_read, after.files_reused], [2, 0]);
    assertEquals(after.files.flatMap((f) => recordsOf(f.packed).map((r) => r.input)), [1, 16, 2]);
  });
});

Deno.test("spec usage: skipped lines are totalled per file for the log", async () => {
  await withPool(async (root) => {
    const p = (name: string) => join(root, "projects", "-w", name);
    await write(p("bad.jsonl"), session("bad", "/w", 1) + 'garbage\n{"torn":');
    await write(p("good.jsonl"), session("good", "/w", 2));
    const scan = await new PoolScanner([root]).scan();
    assertEquals(scan.skipped_lines, 2);
    assertEquals(scan.skipped_files, [{ path: p("bad.jsonl"), lines: 2 }]);
    assertEquals(scan.files.flatMap((f) => recordsOf(f.packed).map((r) => r.input)), [1, 2]);
  });
});

Deno.test("scan: a file that cannot be read is reported by path and reason, the rest is scanned", async () => {
  await withPool(async (root) => {
    const p = (name: string) => join(root, "projects", "-w", name);
    await write(p("open.jsonl"), session("open", "/w", 2));
    // A dangling link: even root cannot read it, so the case holds whoever runs the test.
    await Deno.symlink(p("gone.jsonl"), p("dangling.jsonl"));
    const scan = await new PoolScanner([root]).scan();
    assertEquals(scan.unreadable.map((u) => u.path), [p("dangling.jsonl")]);
    assertEquals(scan.unreadable[0].reason.length > 0, true);
    assertEquals(scan.files.map((f) => f.path), [p("open.jsonl")]);
  });
});

Deno.test("usage: a first scan spread over reader threads answers what one thread reads", async () => {
  await withPool(async (root) => {
    for (let i = 0; i < 9; i++) {
      const cwd = `/w/app${i % 3}`;
      await write(
        join(root, "projects", slugFor(cwd), `s${i}.jsonl`),
        session(`s${i}`, cwd, i + 1),
      );
    }
    const threaded = await new PoolScanner([root], { threadedBytes: 0 }).scan();
    const single = await new PoolScanner([root], { threadedBytes: Infinity }).scan();
    assertEquals(threaded.files_read, 9);
    assertEquals(threaded.files, single.files);
    assertEquals(
      threaded.files.flatMap((f) => recordsOf(f.packed).map((r) => r.input)).sort((a, b) => a - b),
      [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
      ],
    );
  });
});

Deno.test("usage: a threaded byte scan of a pool reports exactly what the whole-line parse does", async () => {
  await withPool(async (root) => {
    const texts: string[] = [];
    for (let i = 0; i < 12; i++) {
      const cwd = `/w/app${i % 4}`;
      const s = new SessionLines(`s${i}`, cwd, i % 5 === 4 ? `agent${i}` : null);
      for (let m = 0; m < 30; m++) {
        const at = new Date(AT.getTime() - (i * 30 + m) * 3_600_000 * 7);
        s.prompt(`p${m}`, at).message({
          id: `msg_${i}_${m}`,
          requestId: `req_${i}_${m}`,
          model: ["claude-opus-5-5", "claude-haiku-5-5", "claude-nova-6-0"][m % 3],
          at,
          input: 1 + i * m,
          output: m,
          cacheCreation: m * 11,
          cacheCreation1h: m * 5,
          cacheRead: m % 4 ? 150_000 + m : m,
          speed: m % 9 === 0 ? "fast" : "standard",
          blocks: ["thinking", "text", "tool_use"],
          text: "t".repeat(m * 40),
        });
      }
      let text = s.text();
      if (i % 3 === 0) text = text.replace("\n", '{"torn":\n'); // a torn write
      texts.push(text);
      await write(join(root, "projects", slugFor(cwd), `s${i}.jsonl`), text);
    }
    // A fork: a session's history copied under a new name, every message in it again.
    await write(join(root, "projects", slugFor("/w/app0"), "fork.jsonl"), texts[4] + texts[5]);
    const threaded = await new PoolScanner([root], { threadedBytes: 0 }).scan();
    const exact = await Promise.all(
      threaded.files.map(async (f) => poolFile(f.path, f.slug, await readTranscript(f.path))),
    );
    assertEquals(threaded.files.map((f) => f.skipped), exact.map((f) => f.skipped));
    assertEquals(threaded.skipped_lines, 4);
    const opts = {
      projects: [{ name: "app1", path: "/w/app1" }],
      prices: PriceTable.bundled(),
      now: AT,
      accounts: new Map([["req_3_3", "b"]]),
    };
    const report = buildSnapshot(threaded.files, opts);
    assertEquals(report, buildSnapshot(exact, opts));
    assertEquals(report.lifetime.total.messages, 12 * 30);
    // Folded as the files land (in path order, whatever order the threads answer in).
    const fold = new ReportFold(opts), handed: string[] = [];
    const again = await new PoolScanner([root], { threadedBytes: 0 }).scan((file) => {
      handed.push(file.path);
      fold.add(file);
    });
    assertEquals(handed, again.files.map((f) => f.path));
    assertEquals(fold.snapshot(), report);
  });
});
