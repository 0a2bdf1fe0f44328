/**
 * Usage bench: a generated session pool (default 1 GB) built from a REAL CLI transcript, the
 * forge scanner cold and warm, and the same pool through `ccusage` (npm) in the same run.
 *
 *   tools/deno.sh run --allow-all tools/bench/usage.ts [--size-mb 1024] [--ccusage 20.0.24]
 *       [--runs 3] [--seed 1] [--keep]
 *
 * The template is captured by running the pinned `claude` CLI against the fake Messages API
 * (three turns: two Bash round trips and a thinking+text reply); every generated session
 * repeats its lines with fresh message ids, request ids, usage, models and timestamps.
 * ccusage is installed into a temp dir with `npm install` (it is not a dependency of forge)
 * and given forge's price table as its pricingOverrides, so the costs are comparable.
 */
import { join } from "node:path";
import { PriceTable } from "../../subsystems/usage/prices.ts";
import { PoolScanner } from "../../subsystems/usage/scan.ts";
import { buildSnapshot } from "../../subsystems/usage/report.ts";
import { slugFor } from "../../subsystems/usage/sample_lines.ts";
import bundled from "../../subsystems/usage/prices.json" with { type: "json" };
import { startHarness } from "../../server/workspace/claude/testing.ts";

type Obj = Record<string, unknown>;
const flag = (name: string, dflt: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : dflt;
};
const SIZE = Number(flag("size-mb", "1024")) * 1024 * 1024;
const CCUSAGE = flag("ccusage", "20.0.24");
let seed = Number(flag("seed", "1")) >>> 0;
const rand = () => { // mulberry32: the same mix of sizes, models and usage for the same seed
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

/** Capture one real transcript: header (turn 1), a repeatable block (turns 2-3), the tail. */
async function captureTemplate() {
  const u = (i: number) => ({ input_tokens: i, output_tokens: i, cache_creation_input_tokens: i });
  const tool = (c: string) => ({ type: "tool_use" as const, name: "Bash", input: { command: c } });
  const text = (t: string) => ({ type: "text" as const, text: t });
  const think = (t: string) => ({ type: "thinking" as const, thinking: t, signature: "s" });
  await using h = await startHarness({
    replies: [
      { content: [think("run it"), tool("echo a")], usage: u(1) },
      { content: [text("done")], usage: u(2) },
      { content: [text("again"), tool("echo b")], usage: u(3) },
      { content: [text("done again")], usage: u(4) },
      { content: [think("x"), text("t")], usage: u(5) },
    ],
  });
  const { proc, log } = h.spawn({ argv: {} });
  for (const prompt of ["first", "second", "third"]) {
    const mark = log.mark();
    proc.sendUserMessage(prompt);
    await log.next("result", undefined, mark);
  }
  await proc.close();
  const dir = join(h.configDir, "projects", slugFor(h.cwd));
  const [name] = await Array.fromAsync(Deno.readDir(dir), (e) => e.name);
  const lines = (await Deno.readTextFile(join(dir, name))).trim().split("\n");
  const objs = lines.map((l) => JSON.parse(l) as Obj);
  const enqueues = objs.flatMap((o, i) =>
    o.type === "queue-operation" && o.operation === "enqueue" ? [i] : []
  );
  const tailAt = objs.findLastIndex((o) => o.type === "assistant") + 1;
  if (enqueues.length !== 3) throw new Error(`template: expected 3 turns, saw ${enqueues.length}`);
  return {
    sid: String(objs[0].sessionId),
    cwd: h.cwd,
    header: lines.slice(0, enqueues[1]),
    block: lines.slice(enqueues[1], tailAt),
    tail: lines.slice(tailAt),
  };
}
type Template = Awaited<ReturnType<typeof captureTemplate>>;

const MODELS: [string, number][] = [
  ["claude-opus-5-5", 0.6],
  ["claude-sonnet-5-5", 0.2],
  ["claude-haiku-5-5", 0.1],
  ["claude-fable-5-2", 0.097],
  ["claude-nova-6-0", 0.003], // not in the table: both tools must list it unpriced
];
function pickModel(): string {
  let r = rand();
  for (const [m, p] of MODELS) if ((r -= p) < 0) return m;
  return MODELS[0][0];
}

/** One session's text: the header (unless a subagent) then blocks up to `bytes`. Every
 * API message gets fresh ids, so only forks repeat a message across files. */
function session(t: Template, sid: string, cwd: string, at: number, bytes: number, agent = "") {
  const fix = (s: string) => s.replaceAll(t.sid, sid).replaceAll(t.cwd, cwd);
  const parse = (lines: string[]) =>
    lines.map((l) => ({ text: fix(l), obj: JSON.parse(fix(l)) as Obj }));
  const out: string[] = [];
  let size = 0;
  const render = (lines: { text: string; obj: Obj }[]) => {
    const ids = new Map<string, Obj>();
    for (const { text, obj } of lines) {
      let line = text;
      if (obj.type === "assistant") {
        const msg = obj.message as Obj;
        let m = ids.get(String(msg.id));
        if (!m) {
          at += int(2_000, 90_000);
          m = fakeMessage(msg.usage as Obj);
          ids.set(String(msg.id), m);
        }
        const content = (msg.content as Obj[]).map((c) =>
          c.type === "text" ? { ...c, text: "x".repeat(int(20, 2_000)) } : c
        );
        line = JSON.stringify({
          ...obj,
          ...(agent ? { isSidechain: true, agentId: agent } : {}),
          timestamp: new Date(at).toISOString(),
          requestId: m.req,
          message: { ...msg, id: m.id, model: m.model, usage: m.usage, content },
        });
      } else if (obj.type === "user" && obj.toolUseResult) {
        const stdout = "y".repeat(int(0, 16_000)); // tool output: the bulk of a real transcript
        line = JSON.stringify({ ...obj, toolUseResult: { ...(obj.toolUseResult as Obj), stdout } });
      }
      out.push(line);
      size += line.length + 1;
    }
  };
  if (!agent) render(parse(t.header));
  const block = parse(t.block);
  while (size < bytes) {
    render(block);
    if (rand() < 0.002) out.push(out[out.length - 1].slice(0, 700)); // a torn write
  }
  if (!agent) out.push(...t.tail.map(fix));
  return out.join("\n") + "\n";
}

function fakeMessage(usage: Obj): Obj {
  const model = pickModel();
  const cc = rand() < 0.5 ? int(0, 15_000) : 0;
  const hour = rand() < 0.4;
  return {
    id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
    req: `req_${crypto.randomUUID().replaceAll("-", "")}`,
    model,
    usage: {
      ...usage,
      input_tokens: int(1, 3_000),
      output_tokens: int(5, 4_000),
      cache_creation_input_tokens: cc,
      // Some Haiku prompts pass 100k tokens: its long-prompt tier applies to those.
      cache_read_input_tokens: model === "claude-haiku-5-5" && rand() < 0.3
        ? int(100_000, 300_000)
        : int(0, 90_000),
      cache_creation: {
        ephemeral_1h_input_tokens: hour ? cc : 0,
        ephemeral_5m_input_tokens: hour ? 0 : cc,
      },
      speed: model === "claude-opus-5-5" && rand() < 0.02 ? "fast" : "standard",
    },
  };
}

async function generate(t: Template, root: string): Promise<{ files: number; bytes: number }> {
  const cwds = Array.from({ length: 12 }, (_, i) => `/home/dev/src/project-${i}`);
  let bytes = 0, files = 0;
  const end = Date.now();
  const put = async (path: string, text: string) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
    bytes += text.length; // the pool is ASCII
    files++;
  };
  while (bytes < SIZE) {
    const sid = crypto.randomUUID(), cwd = cwds[int(0, cwds.length - 1)];
    const dir = join(root, "projects", slugFor(cwd));
    const start = end - int(0, 60) * 86_400_000;
    const text = session(t, sid, cwd, start, int(200_000, 6_000_000));
    await put(join(dir, `${sid}.jsonl`), text);
    if (rand() < 0.15) { // a subagent's own transcript
      const agent = crypto.randomUUID().slice(0, 17).replaceAll("-", "");
      await put(
        join(dir, sid, "subagents", `agent-${agent}.jsonl`),
        session(t, sid, cwd, start, int(50_000, 1_500_000), agent),
      );
    }
    if (rand() < 0.04) { // --fork-session: the history copied under a new id, then more turns
      const fork = crypto.randomUUID();
      await put(
        join(dir, `${fork}.jsonl`),
        text.replaceAll(sid, fork) + session(t, fork, cwd, end - 3_600_000, 300_000),
      );
    }
  }
  return { files, bytes };
}

/** Install ccusage into `tmp` and write its config: forge's table as pricingOverrides. */
async function installCcusage(tmp: string): Promise<string[]> {
  const prefix = join(tmp, "ccusage");
  const install = await new Deno.Command("npm", {
    args: ["install", "--prefix", prefix, "--no-audit", "--no-fund", `ccusage@${CCUSAGE}`],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!install.success) {
    throw new Error(`npm install ccusage@${CCUSAGE}: ${new TextDecoder().decode(install.stderr)}`);
  }
  const overrides: Obj = {};
  for (const [model, r] of Object.entries(bundled.models) as [string, Record<string, number>][]) {
    overrides[model] = {
      inputCostPerToken: r.input / 1e6,
      outputCostPerToken: r.output / 1e6,
      cacheCreationInputTokenCost: r.cache_write_5m / 1e6,
      cacheReadInputTokenCost: r.cache_read / 1e6,
      ...(typeof r.fast_multiplier === "number" ? { fastMultiplier: r.fast_multiplier } : {}),
    };
  }
  const config = join(tmp, "ccusage.json");
  await Deno.writeTextFile(config, JSON.stringify({ defaults: { pricingOverrides: overrides } }));
  const cli = join(prefix, "node_modules/ccusage/src/cli.js");
  return [cli, "claude", "daily", "--json", "--breakdown", "--offline", "--config", config];
}

/** One ccusage run over the pool: wall time (process start to exit), totals, per model. */
async function runCcusage(args: string[], pool: string) {
  const t0 = performance.now();
  const out = await new Deno.Command("node", {
    args,
    env: { CLAUDE_CONFIG_DIR: pool },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  if (!out.success) throw new Error(`ccusage failed: ${new TextDecoder().decode(out.stderr)}`);
  const report = JSON.parse(new TextDecoder().decode(out.stdout));
  const byModel = new Map<string, { cost: number; tokens: number[] }>();
  for (const day of report.daily) {
    for (const b of day.modelBreakdowns) {
      // ccusage reports fast-mode messages as a model of their own, "<model>-fast".
      const name = String(b.modelName).replace(/-fast$/, "");
      const m = byModel.get(name) ?? { cost: 0, tokens: [0, 0, 0, 0] };
      m.cost += b.cost;
      [b.inputTokens, b.outputTokens, b.cacheCreationTokens, b.cacheReadTokens].forEach((v, i) =>
        m.tokens[i] += v
      );
      byModel.set(name, m);
    }
  }
  return { ms, totals: report.totals, byModel };
}

/** `--measure POOL`: one forge process, cold scan then warm scan, answered as JSON. */
async function measure(pool: string) {
  const prices = PriceTable.bundled();
  const scanner = new PoolScanner([pool]);
  let t0 = performance.now();
  const cold = await scanner.scan();
  const snap = buildSnapshot(cold.files, { projects: [], prices, now: new Date() });
  const coldMs = performance.now() - t0;
  t0 = performance.now();
  const warm = await scanner.scan();
  buildSnapshot(warm.files, { projects: [], prices, now: new Date() });
  const warmMs = performance.now() - t0;
  // forge's records priced without the long-prompt tier (ccusage's overrides have a 200k
  // tier only): if this matches ccusage, that tier is the whole cost difference.
  const flat = structuredClone(bundled) as { models: Record<string, Obj> };
  for (const r of Object.values(flat.models)) delete r.long_prompt;
  const noTier = buildSnapshot(cold.files, {
    projects: [],
    prices: PriceTable.fromJson(flat),
    now: new Date(),
  });
  return {
    coldMs,
    warmMs,
    rssMiB: Deno.memoryUsage().rss / 2 ** 20,
    files: [cold.files_read, warm.files_read, warm.files_reused],
    skipped: cold.skipped_lines,
    lines: cold.files.reduce((n, f) => n + f.records.length, 0),
    total: snap.lifetime.total,
    byModel: snap.lifetime.by_model,
    noTier: noTier.lifetime.by_model.map((r) => [r.name, r.cost_usd] as const),
    noTierTotal: noTier.lifetime.total.cost_usd,
  };
}
type Measured = Awaited<ReturnType<typeof measure>>;

async function measureInChild(pool: string): Promise<Measured> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL(import.meta.url).pathname, "--measure", pool],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("forge measure process failed");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

if (Deno.args.includes("--measure")) {
  console.log(JSON.stringify(await measure(flag("measure", ""))));
  Deno.exit(0);
}

const RUNS = Number(flag("runs", "3"));
const tmp = await Deno.makeTempDir({ prefix: "forge_usage_bench_" });
try {
  const pool = join(tmp, "pool");
  const t0 = performance.now();
  const template = await captureTemplate();
  const gen = await generate(template, pool);
  const ccArgs = await installCcusage(tmp);
  // Written pages still being flushed would slow whichever tool ran first.
  await new Deno.Command("sync").output();
  console.log(
    `pool: ${(gen.bytes / 2 ** 20).toFixed(0)} MiB in ${gen.files} files from a real ${
      template.header.length + template.block.length
    }-line CLI transcript (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  // Alternate the tools, each in its own process, and keep every run's time.
  const forge: Measured[] = [];
  const cc: Awaited<ReturnType<typeof runCcusage>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    forge.push(await measureInChild(pool));
    cc.push(await runCcusage(ccArgs, pool));
  }
  const f = forge[0], c = cc[0];
  const secs = (ms: number[]) => ms.map((m) => (m / 1000).toFixed(2)).join(", ");
  const best = (ms: number[]) => Math.min(...ms);
  const cold = forge.map((r) => r.coldMs), warm = forge.map((r) => r.warmMs);
  const ccMs = cc.map((r) => r.ms);
  console.log(
    `forge cold scan (s): ${secs(cold)}; best ${
      (gen.bytes / 2 ** 20 / (best(cold) / 1000)).toFixed(0)
    } MiB/s; ${f.files[0]} files read, ${f.skipped} torn lines skipped, rss ${
      f.rssMiB.toFixed(0)
    } MiB`,
  );
  console.log(
    `forge warm scan (ms): ${warm.map((m) => m.toFixed(0)).join(", ")} (${f.files[1]} read, ${
      f.files[2]
    } reused)`,
  );
  console.log(`ccusage ${CCUSAGE} (s, process wall time): ${secs(ccMs)}`);
  console.log(
    `best of ${RUNS}: ccusage / forge cold = ${(best(ccMs) / best(cold)).toFixed(2)}, ` +
      `ccusage / forge warm = ${(best(ccMs) / best(warm)).toFixed(0)}`,
  );
  console.log(`pool holds ${f.total.messages} API messages on ${f.lines} assistant lines`);

  const t = f.total;
  const pad = (s: string | number, n = 16) => String(s).padStart(n);
  console.log(`\n${"total".padEnd(22)}${pad("forge")}${pad("ccusage")}`);
  for (
    const [name, mine, theirs] of [
      ["input_tokens", t.input_tokens, c.totals.inputTokens],
      ["output_tokens", t.output_tokens, c.totals.outputTokens],
      ["cache_creation_tokens", t.cache_creation_tokens, c.totals.cacheCreationTokens],
      ["cache_read_tokens", t.cache_read_tokens, c.totals.cacheReadTokens],
      ["cost_usd", t.cost_usd.toFixed(4), c.totals.totalCost.toFixed(4)],
      ["cost_usd, no tier", f.noTierTotal.toFixed(4), c.totals.totalCost.toFixed(4)],
    ] as [string, string | number, string | number][]
  ) console.log(`${name.padEnd(22)}${pad(mine)}${pad(theirs)}`);
  console.log(
    `unpriced: forge ${JSON.stringify(t.unpriced_models)}, ccusage ${
      JSON.stringify(c.totals.unpricedModels ?? [])
    }`,
  );
  console.log(
    `\n${"model".padEnd(20)}${pad("forge $", 14)}${pad("no tier $", 16)}${
      pad("ccusage $", 14)
    }  tokens equal`,
  );
  const noTier = new Map(f.noTier);
  for (const r of f.byModel) {
    const m = c.byModel.get(r.name);
    const same = m !== undefined &&
      [r.input_tokens, r.output_tokens, r.cache_creation_tokens, r.cache_read_tokens]
        .every((v, i) => v === m.tokens[i]);
    console.log(
      `${r.name.padEnd(20)}${pad(r.cost_usd.toFixed(2), 14)}${
        pad((noTier.get(r.name) ?? 0).toFixed(2), 16)
      }${pad(m ? m.cost.toFixed(2) : "-", 14)}  ${same}`,
    );
  }
  console.log(
    "\nforge minus ccusage: Haiku 5.5 prompts over 100k tokens pay the long-prompt rates in" +
      " forge's table (ccusage's overrides can only express a 200k tier); 'no tier' is forge" +
      " without that tier. ccusage lists fast-mode messages as '<model>-fast', merged above.",
  );
} finally {
  if (Deno.args.includes("--keep")) console.log(`kept ${tmp}`);
  else await Deno.remove(tmp, { recursive: true });
}
