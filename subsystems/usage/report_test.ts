import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { keyHash } from "./packed.ts";
import { fileURLToPath } from "node:url";
import { buildSnapshot, windowStarts } from "./report.ts";
import { UsageSnapshotSchema } from "../../protocol/usage.ts";
import { PriceTable } from "./prices.ts";
import { TranscriptParser } from "./transcript.ts";
import { type ScriptedMessage, SessionLines, slugFor } from "./sample_lines.ts";
import { type PoolFile, poolFile } from "./scan.ts";

const NOW = new Date("2026-12-02T12:00:00Z");
const prices = PriceTable.bundled();

function msg(id: string, over: Partial<ScriptedMessage> = {}): ScriptedMessage {
  return {
    id: `msg_${id}`,
    requestId: `req_${id}`,
    model: "claude-opus-5-5",
    at: NOW,
    input: 100,
    output: 10,
    cacheCreation: 0,
    cacheRead: 0,
    ...over,
  };
}

function file(path: string, s: SessionLines): PoolFile {
  const p = new TranscriptParser();
  p.push(s.text());
  return poolFile(path, slugFor(s.cwd), p.end());
}

/** Runs `code` under another time zone and answers what it printed as JSON. */
async function underTz(tz: string, code: string): Promise<unknown> {
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    cwd: repo,
    env: { TZ: tz },
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`deno eval under TZ=${tz} failed: ${err}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("spec usage: windows start at local midnight, Monday, the 1st (non-UTC zones, DST)", async () => {
  const report = JSON.stringify(new URL("./report.ts", import.meta.url).href);
  const cases: [string, string, [string, string, string]][] = [
    // Thu 01:30 in India (+05:30): today/Monday/1st in IST.
    ["Asia/Kolkata", "2026-12-02T20:00:00Z", [
      "2026-12-02T18:30:00.000Z",
      "2026-11-29T18:30:00.000Z",
      "2026-11-30T18:30:00.000Z",
    ]],
    // Sun 23:30 PST on the day DST ended: the day began in PDT; the week began last Monday.
    ["America/Los_Angeles", "2026-11-02T07:30:00Z", [
      "2026-11-01T07:00:00.000Z",
      "2026-10-26T07:00:00.000Z",
      "2026-11-01T07:00:00.000Z",
    ]],
    // Mon noon CEST the day after spring-forward; the month began in CET.
    ["Europe/Berlin", "2026-03-30T10:00:00Z", [
      "2026-03-29T22:00:00.000Z",
      "2026-03-29T22:00:00.000Z",
      "2026-02-28T23:00:00.000Z",
    ]],
  ];
  for (const [tz, now, expected] of cases) {
    const got = await underTz(
      tz,
      `import { windowStarts } from ${report};
       const s = windowStarts(new Date(${JSON.stringify(now)}));
       console.log(JSON.stringify([s.today, s.week, s.month].map((t) => new Date(t).toISOString())));`,
    );
    assertEquals(got, expected, `${tz} at ${now}`);
  }
});

Deno.test("spec usage: a report under a non-UTC zone cuts each window at its local boundary", async () => {
  const report = JSON.stringify(new URL("./report.ts", import.meta.url).href);
  const sample = JSON.stringify(new URL("./sample_lines.ts", import.meta.url).href);
  const parser = JSON.stringify(new URL("./transcript.ts", import.meta.url).href);
  const scan = JSON.stringify(new URL("./scan.ts", import.meta.url).href);
  // Kolkata, now = Thu 3 Dec 01:30 local. Inputs are powers of two so each sum names its set.
  const got = await underTz(
    "Asia/Kolkata",
    `import { buildSnapshot } from ${report};
     import { SessionLines } from ${sample};
     import { TranscriptParser } from ${parser};
     import { poolFile } from ${scan};
     const s = new SessionLines("tz", "/w");
     const at = (iso, input) => s.message({ id: "msg_" + input, requestId: "req_" + input,
       model: "claude-opus-5-5", at: new Date(iso), input, output: 0, cacheCreation: 0, cacheRead: 0 });
     at("2026-12-02T18:29:59Z", 1);  // Wed 23:59:59: this week, this month, not today
     at("2026-12-02T18:30:00Z", 2);  // Thu 00:00: today
     at("2026-11-29T18:29:59Z", 4);  // Sun 29 Nov 23:59:59: last week, last month
     at("2026-11-30T18:30:00Z", 8);  // Tue 1 Dec 00:00: this month
     at("2026-11-30T18:29:59Z", 16); // Mon 30 Nov 23:59:59: this week, last month
     const p = new TranscriptParser(); p.push(s.text());
     p.push('{"type":"assistant","message":{"model":"claude-opus-5-5","usage":{"input_tokens":32}}}\\n');
     const snap = buildSnapshot([poolFile("f", "-w", p.end())],
       { projects: [], prices: null, now: new Date("2026-12-02T20:00:00Z") });
     console.log(JSON.stringify(["today", "week", "month", "lifetime"].map((w) => snap[w].total.input_tokens)));`,
  );
  assertEquals(got, [2, 1 + 2 + 8 + 16, 1 + 2 + 8, 63]);
});

Deno.test("spec usage: a message repeated on several lines and in a forked file counts once", () => {
  const blocks: ScriptedMessage["blocks"] = ["thinking", "text", "tool_use"];
  const original = new SessionLines("orig", "/w/app")
    .message(msg("a", { blocks, input: 1000, cacheCreation: 300, cacheRead: 5000 }))
    .message(msg("b", { blocks: ["text", "text"], input: 7, output: 3 }));
  // --fork-session copies the history into a new file, then the fork goes on.
  const fork = new SessionLines("fork", "/w/app")
    .message(msg("a", { blocks, input: 1000, cacheCreation: 300, cacheRead: 5000 }))
    .message(msg("c", { input: 1, output: 1 }));
  const snap = buildSnapshot([file("1", original), file("2", fork)], {
    projects: [],
    prices,
    now: NOW,
  });
  const t = snap.lifetime.total;
  assertEquals(
    [t.messages, t.input_tokens, t.output_tokens, t.cache_creation_tokens, t.cache_read_tokens],
    [3, 1008, 10 + 3 + 1, 300, 5000],
  );
  assertEquals(snap.today.total, { ...t });
});

Deno.test("report: two messages whose keys share a hash both count, each once", () => {
  // Keys `msg_<n>:req_<n>` until two share the fold's 30-bit hash (a few tens of thousands in).
  const byHash = new Map<number, string>();
  let pair: [string, string] | null = null;
  for (let i = 0; pair === null; i++) {
    const h = keyHash(`msg_${i}:req_${i}`);
    const other = byHash.get(h);
    if (other !== undefined) pair = [other, String(i)];
    else byHash.set(h, String(i));
  }
  const [a, b] = pair;
  ok(keyHash(`msg_${a}:req_${a}`) === keyHash(`msg_${b}:req_${b}`));
  const one = new SessionLines("one", "/w").message(msg(a, { input: 1 })).message(
    msg(b, { input: 2 }),
  );
  const two = new SessionLines("two", "/w").message(msg(b, { input: 2 })).message(
    msg("c", { input: 4 }),
  )
    .message(msg(a, { input: 1 }));
  const snap = buildSnapshot([file("1", one), file("2", two)], { projects: [], prices, now: NOW });
  assertEquals([snap.lifetime.total.messages, snap.lifetime.total.input_tokens], [3, 7]);
});

Deno.test("spec usage: rows sorted by cost; an unpriced model is listed, not costed at zero", () => {
  const s = new SessionLines("s", "/w")
    .message(msg("cheap", { model: "claude-haiku-5-5", input: 1000 }))
    .message(msg("dear", { model: "claude-fable-5-2", input: 1000 }))
    .message(msg("mid", { model: "claude-sonnet-5-5", input: 1000 }))
    .message(msg("new", { model: "claude-imaginary-9", input: 1_000_000 }));
  const snap = buildSnapshot([file("f", s)], { projects: [], prices, now: NOW });
  const rows = snap.lifetime.by_model;
  assertEquals(rows.map((r) => r.name), [
    "claude-fable-5-2",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-imaginary-9",
  ]);
  assertEquals(rows[3].unpriced_models, ["claude-imaginary-9"]);
  assertEquals(rows[3].input_tokens, 1_000_000);
  assertEquals(rows.slice(0, 3).map((r) => r.unpriced_models), [[], [], []]);
  assertEquals(snap.lifetime.total.unpriced_models, ["claude-imaginary-9"]);
  const expected = (1000 * 8 + 10 * 40 + 1000 * 2 + 10 * 10 + 1000 * 0.1 + 10 * 0.5) / 1e6;
  assertEquals(Math.abs(snap.lifetime.total.cost_usd - expected) < 1e-12, true);
  assertEquals(snap.pricing_available, true);
  assertEquals(snap.prices, prices.source);
  UsageSnapshotSchema.parse(snap);
});

Deno.test("spec usage: without a price table every cost is zero and pricing_available false", () => {
  const s = new SessionLines("s", "/w").message(msg("a"));
  const snap = buildSnapshot([file("f", s)], { projects: [], prices: null, now: NOW });
  assertEquals(snap.pricing_available, false);
  assertEquals(snap.prices, null);
  assertEquals(snap.lifetime.total.cost_usd, 0);
  assertEquals(snap.lifetime.total.input_tokens, 100);
});

Deno.test("spec usage: a row's project is the forge project holding the cwd, else the cwd", () => {
  const projects = [
    { name: "acme/app", path: "/w/acme/app/" },
    { name: "acme/app-sub", path: "/w/acme/app/sub" },
  ];
  const files = [
    file("1", new SessionLines("1", "/w/acme/app/src").message(msg("1", { input: 1 }))),
    file("2", new SessionLines("2", "/w/acme/app/sub/x").message(msg("2", { input: 2 }))),
    file("3", new SessionLines("3", "/w/acme/apple").message(msg("3", { input: 4 }))),
    file("4", new SessionLines("4", "/w/acme/app").message(msg("4", { input: 8 }))),
  ];
  // A transcript naming no cwd: matched through the CLI's slug of the project path.
  const p = new TranscriptParser();
  p.push('{"type":"assistant","message":{"model":"m","usage":{"input_tokens":16}}}\n');
  files.push(poolFile("5", slugFor("/w/acme/app/sub"), p.end()));
  const q = new TranscriptParser();
  q.push('{"type":"assistant","message":{"model":"m","usage":{"input_tokens":32}}}\n');
  files.push(poolFile("6", "-elsewhere", q.end()));
  const snap = buildSnapshot(files, { projects, prices: null, now: NOW });
  const byName = Object.fromEntries(
    snap.lifetime.by_project.map((r) => [r.name, [r.input_tokens, r.path, r.forge_project]]),
  );
  assertEquals(byName, {
    "acme/app": [9, "/w/acme/app", true],
    "acme/app-sub": [18, "/w/acme/app/sub", true],
    "/w/acme/apple": [4, "/w/acme/apple", false],
    "-elsewhere": [32, null, false],
  });
});

Deno.test("report: windowStarts on a Monday starts the week today", () => {
  const monday = new Date(2026, 10, 30, 15, 0); // local time, whatever the zone
  const s = windowStarts(monday);
  assertEquals(s.week, s.today);
  assertEquals(new Date(s.today).getHours(), 0);
  assertEquals(new Date(s.month).getDate(), 1);
});

// spec: usage (the usage subject attributes cost per account): the gateway's ledger
// names the account behind each request-id; a message it does not name is unattributed.
Deno.test("report: by_account rows from the gateway's request ledger", () => {
  const s = new SessionLines("a", "/w/app")
    .message(msg("1", { input: 100 }))
    .message(msg("2", { input: 200 }))
    .message(msg("3", { input: 400 }));
  const accounts = new Map([["req_1", "Main"], ["req_2", "Spare"]]);
  const snap = buildSnapshot([file("f", s)], { projects: [], prices, now: NOW, accounts });
  UsageSnapshotSchema.parse(snap);
  const rows = Object.fromEntries(
    snap.today.by_account.map((r) => [r.name, [r.messages, r.input_tokens]]),
  );
  assertEquals(rows, { Main: [1, 100], Spare: [1, 200], unattributed: [1, 400] });
  const main = snap.today.by_account.find((r) => r.name === "Main")!;
  const total = snap.today.by_account.reduce((n, r) => n + r.cost_usd, 0);
  assertEquals(Math.abs(total - snap.today.total.cost_usd) < 1e-9, true);
  assertEquals(main.cost_usd > 0, true);
});
