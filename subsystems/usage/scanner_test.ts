import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfigDir, UsageScanner } from "./scanner.ts";
import { UsageSnapshotSchema } from "../../protocol/usage.ts";
import { buildSnapshot, type UsageRow } from "./report.ts";
import { readTranscript } from "./transcript.ts";
import { poolFile } from "./scan.ts";
import { TranscriptBytes } from "./transcript_bytes.ts";
import { SessionLines, slugFor } from "./sample_lines.ts";
import { startHarness } from "../../tests/claude_support.ts";

const NOW = new Date("2026-12-02T12:00:00Z");

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

function tokens(row: UsageRow): number[] {
  return [
    row.messages,
    row.input_tokens,
    row.output_tokens,
    row.cache_creation_tokens,
    row.cache_read_tokens,
  ];
}

Deno.test("spec usage: UsageScanner answers exact totals and reuses unchanged files", async () => {
  const root = await Deno.makeTempDir({ prefix: "usage_scanner_" });
  try {
    const cwd = "/w/acme/app";
    const s = new SessionLines("s1", cwd).prompt("go", NOW);
    s.message({
      id: "msg_1",
      requestId: "req_1",
      model: "claude-opus-5-5",
      at: NOW,
      input: 2712,
      output: 11,
      cacheCreation: 100,
      cacheCreation1h: 40,
      cacheRead: 9000,
      blocks: ["thinking", "text", "tool_use"],
    });
    const sub = new SessionLines("s1", cwd, "a947").message({
      id: "msg_2",
      requestId: "req_2",
      model: "claude-haiku-5-5",
      at: NOW,
      input: 50,
      output: 5,
      cacheCreation: 0,
      cacheRead: 0,
    });
    await write(join(root, "projects", slugFor(cwd), "s1.jsonl"), s.text() + "torn{\n");
    await write(
      join(root, "projects", slugFor(cwd), "s1", "subagents", "agent-a947.jsonl"),
      sub.text(),
    );
    const scanner = new UsageScanner({
      configDirs: [root],
      projects: [{ name: "acme/app", path: "/w/acme/app" }],
    });
    const first = await scanner.scan(NOW);
    assertEquals([first.files_read, first.files_reused, first.skipped_lines], [2, 0, 1]);
    assertEquals(first.price_error, null);
    const snap = UsageSnapshotSchema.parse(first.snapshot);
    assertEquals(tokens(snap.lifetime.total), [2, 2762, 16, 100, 9000]);
    assertEquals(snap.today.by_project.map((r) => [r.name, r.messages]), [["acme/app", 2]]);
    const cost = (2712 * 4 + 11 * 20 + 60 * 5 + 40 * 8 + 9000 * 0.2 + 50 * 0.1 + 5 * 0.5) / 1e6;
    ok(Math.abs(snap.lifetime.total.cost_usd - cost) < 1e-12, `${snap.lifetime.total.cost_usd}`);
    assertEquals(snap.lifetime.by_model.map((r) => r.name), [
      "claude-opus-5-5",
      "claude-haiku-5-5",
    ]);

    const again = await scanner.scan(NOW);
    assertEquals([again.files_read, again.files_reused], [0, 2]);
    assertEquals(again.snapshot, first.snapshot);
    // Nothing changed: the report is the one already built (a rescan costs the walk).
    ok(again.snapshot === first.snapshot, "an unchanged pool reuses its report");
    // A later day moves the windows, and other projects move the grouping: both rebuild.
    const tomorrow = await scanner.scan(new Date(NOW.getTime() + 86_400_000));
    ok(tomorrow.snapshot !== first.snapshot, "a new day rebuilds the windows");
    assertEquals(tomorrow.snapshot.today.total.messages, 0);
    scanner.setProjects([]);
    const regrouped = await scanner.scan(NOW);
    assertEquals(regrouped.snapshot.today.by_project.map((r) => r.name), [cwd]);
    scanner.setProjects([{ name: "acme/app", path: "/w/acme/app" }]);
    // A request attributed to an account for the first time moves the by_account rows.
    const before = await scanner.scan(NOW, new Map());
    const same = await scanner.scan(NOW, new Map());
    ok(same.snapshot === before.snapshot, "an equal account map reuses the report");
    const attributed = await scanner.scan(NOW, new Map([["req-x", "Main"]]));
    ok(attributed.snapshot !== before.snapshot, "a new attribution rebuilds the report");

    const bare = await new UsageScanner({ configDirs: [root], projects: [], prices: null }).scan(
      NOW,
    );
    assertEquals(bare.snapshot.pricing_available, false);
    assertEquals(bare.snapshot.lifetime.by_project[0].name, cwd);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("spec usage: the real CLI's transcripts give exactly the tokens the fake API scripted", async () => {
  const usage = (i: number, o: number, cc: number, cr: number) => ({
    input_tokens: i,
    output_tokens: o,
    cache_creation_input_tokens: cc,
    cache_read_input_tokens: cr,
  });
  await using h = await startHarness({
    replies: [
      {
        content: [
          { type: "thinking", thinking: "run it", signature: "sig" },
          { type: "tool_use", name: "Bash", input: { command: "echo hi", description: "echo" } },
        ],
        usage: usage(1201, 31, 4000, 0),
      },
      { content: [{ type: "text", text: "done" }], usage: usage(17, 5, 60, 4000) },
      {
        content: [
          { type: "thinking", thinking: "again", signature: "sig2" },
          { type: "text", text: "second turn" },
        ],
        usage: usage(9, 700, 0, 4060),
      },
    ],
  });
  const { proc, log } = h.spawn({ argv: {} });
  proc.sendUserMessage("first");
  await log.next("result");
  const mark = log.mark();
  proc.sendUserMessage("second");
  await log.next("result", undefined, mark);
  await proc.close();

  const scanner = new UsageScanner({
    configDirs: [h.configDir],
    projects: [{ name: "demo/ws", path: h.cwd }],
  });
  const { snapshot, skipped_lines, files_read } = await scanner.scan();
  assertEquals(skipped_lines, 0);
  assertEquals(files_read, 1);
  // The CLI wrote each message's usage on one line per content block: 2 + 1 + 2 lines.
  const dir = join(h.configDir, "projects", slugFor(h.cwd));
  // The CLI may also make a `memory/` folder here, in its own time: the transcript is the .jsonl.
  const [name] = (await Array.fromAsync(Deno.readDir(dir)))
    .filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => e.name);
  // The first scan's byte reader reads this real transcript as the whole-line parse does.
  const exact = await readTranscript(join(dir, name));
  assertEquals(
    new TranscriptBytes((s) => s, { keepRepeats: true }).readSync(join(dir, name)),
    exact,
  );
  assertEquals(exact.records.length, 5);
  const lines = (await Deno.readTextFile(join(dir, name))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const assistant = lines.filter((l) => l.type === "assistant");
  assertEquals(assistant.length, 5);
  const t = snapshot.lifetime.total;
  assertEquals(tokens(t), [3, 1201 + 17 + 9, 31 + 5 + 700, 4000 + 60, 4000 + 4060]);
  assertEquals(snapshot.today.total, t);
  assertEquals(snapshot.lifetime.by_project.map((r) => [r.name, r.forge_project]), [[
    "demo/ws",
    true,
  ]]);
  assertEquals(snapshot.lifetime.total.unpriced_models, []);
  ok(t.cost_usd > 0);
});

Deno.test("scanner: the default config dir is $CLAUDE_CONFIG_DIR, else $HOME/.claude", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(defaultConfigDir(env({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" })), "/c");
  assertEquals(defaultConfigDir(env({ HOME: "/h" })), "/h/.claude");
  assertEquals(defaultConfigDir(env({})), null);
});

Deno.test("spec usage: the committed real CLI transcripts give exactly their scripted usage", async () => {
  // fixtures/transcripts/README.md: usage per API call, as the fake API was scripted.
  const scripted: Record<string, number[]> = {
    "plain_text.jsonl": [1, 120, 9, 0, 0],
    "tool_bash.jsonl": [2, 300 + 30, 40 + 12, 250, 550],
    "multi_turn.jsonl": [3, 1000 + 200 + 30, 100 + 50 + 5, 500 + 100, 1500 + 1700],
  };
  const fixture = (name: string) => new URL(`../../fixtures/transcripts/${name}`, import.meta.url);
  for (const [name, expected] of Object.entries(scripted)) {
    const read = await readTranscript(fileURLToPath(fixture(name)));
    assertEquals(read.skipped, 0, name);
    const alone = buildSnapshot([poolFile(name, "-home-user-project", read)], {
      projects: [],
      prices: null,
      now: new Date(),
    });
    assertEquals(tokens(alone.lifetime.total), expected, name);
  }
  // The same files as a pool, with a forge project holding the sessions' cwd.
  const root = await Deno.makeTempDir({ prefix: "usage_fixtures_" });
  try {
    const dir = join(root, "projects", "-home-user-project");
    await Deno.mkdir(dir, { recursive: true });
    for (const name of Object.keys(scripted)) await Deno.copyFile(fixture(name), join(dir, name));
    const { snapshot, skipped_lines } = await new UsageScanner({
      configDirs: [root],
      projects: [{ name: "user/project", path: "/home/user/project" }],
    }).scan();
    assertEquals(skipped_lines, 0);
    const sum = Object.values(scripted).reduce((a, b) => a.map((v, i) => v + b[i]));
    assertEquals(tokens(snapshot.lifetime.total), sum);
    assertEquals(snapshot.lifetime.by_project.map((r) => r.name), ["user/project"]);
    assertEquals(snapshot.lifetime.total.unpriced_models, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
