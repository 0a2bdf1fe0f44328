/**
 * Usage bench: a generated session pool (default 1 GB) built from a REAL CLI transcript, read by
 * forge (scan + report, then again with nothing changed) and by `ccusage` (npm), each as a whole
 * process on a dropped page cache, in paired interleaved arms: medians and ranges of wall and CPU
 * seconds, the per-pair ratios, forge's peak RSS, and what each arm moved (files, messages, the
 * token totals compared model by model).
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
import { UsageScanner } from "../../subsystems/usage/scanner.ts";
import { slugFor } from "../../subsystems/usage/sample_lines.ts";
import bundled from "../../subsystems/usage/prices.json" with { type: "json" };
import { startHarness } from "../../server/workspace/claude/testing.ts";
import type { measure } from "./arms/usage_report.ts";
import { SERVER_V8_FLAGS } from "../permissions.ts";
import { coldRead, timedProcess } from "./arms/process.ts";
import { installCcusage, runCcusage } from "./arms/ccusage.ts";

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
  // The session's transcript; the CLI may also make a `memory` directory beside it.
  const entries = await Array.fromAsync(Deno.readDir(dir));
  const name = entries.find((e) => e.isFile && e.name.endsWith(".jsonl"))?.name;
  if (!name) {
    throw new Error(`template: no transcript in ${dir} (${entries.map((e) => e.name).join(", ")})`);
  }
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

type Measured = Awaited<ReturnType<typeof measure>>;

/**
 * `--no-tier POOL` (untimed): forge's costs without the long-prompt tier, which ccusage's
 * overrides cannot express; if these match ccusage, that tier is the whole cost difference.
 */
async function noTier(pool: string) {
  const flat = structuredClone(bundled) as { models: Record<string, Obj> };
  for (const r of Object.values(flat.models)) delete r.long_prompt;
  const scan = await new UsageScanner({
    configDirs: [pool],
    projects: [],
    prices: PriceTable.fromJson(flat),
  }).scan();
  return {
    byModel: scan.snapshot.lifetime.by_model.map((r) => [r.name, r.cost_usd] as const),
    total: scan.snapshot.lifetime.total.cost_usd,
  };
}

async function measureInChild(pool: string) {
  const run = await timedProcess(
    [
      Deno.execPath(),
      "run",
      "--allow-all",
      `--v8-flags=${SERVER_V8_FLAGS}`, // as forge's launcher runs the server that scans
      new URL("./arms/usage_report.ts", import.meta.url).pathname,
      pool,
    ],
    { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp" },
  );
  return { ...run, m: JSON.parse(run.stdout) as Measured };
}

if (Deno.args.includes("--no-tier")) {
  console.log(JSON.stringify(await noTier(flag("no-tier", ""))));
  Deno.exit(0);
}

const RUNS = Number(flag("runs", "3"));
/** Parallel readers in the floor arm: the most this disk's cold read gained from (8 here). */
const FLOOR_READERS = 8;
const tmp = await Deno.makeTempDir({ prefix: "forge_usage_bench_" });
try {
  const pool = join(tmp, "pool");
  const t0 = performance.now();
  const template = await captureTemplate();
  const gen = await generate(template, pool);
  const ccArgs = await installCcusage(tmp, CCUSAGE);
  // Written pages still being flushed would slow whichever tool ran first.
  await new Deno.Command("sync").output();
  console.log(
    `pool: ${(gen.bytes / 2 ** 20).toFixed(0)} MiB in ${gen.files} files from a real ${
      template.header.length + template.block.length
    }-line CLI transcript (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  // Paired, interleaved arms: forge then ccusage, each a whole process on a cold page cache,
  // then the pool's cold read alone: the floor a 5x goal is set against.
  const forge: Awaited<ReturnType<typeof measureInChild>>[] = [];
  const cc: Awaited<ReturnType<typeof runCcusage>>[] = [];
  const floor: Awaited<ReturnType<typeof coldRead>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    forge.push(await measureInChild(pool));
    cc.push(await runCcusage(ccArgs, pool));
    floor.push(await coldRead(pool, FLOOR_READERS));
  }
  const f = forge[0].m, c = cc[0];
  const untiered = JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", new URL(import.meta.url).pathname, "--no-tier", pool],
        stdout: "piped",
      }).output()).stdout,
    ),
  ) as Awaited<ReturnType<typeof noTier>>;
  const stat = (xs: number[], digits = 2) => {
    const s = [...xs].sort((a, b) => a - b);
    const med = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    return `median ${med.toFixed(digits)} (range ${s[0].toFixed(digits)}-${
      s.at(-1)!.toFixed(digits)
    })`;
  };
  console.log(
    `page cache: ${
      forge.every((r) => r.cold) ? "dropped before every arm" : "WARM (could not drop)"
    }`,
  );
  console.log(
    `forge process wall (s): ${stat(forge.map((r) => r.wall))}; cpu (s): ${
      stat(forge.map((r) => r.cpu))
    }`,
  );
  console.log(
    `ccusage process wall (s): ${stat(cc.map((r) => r.wall))}; cpu (s): ${
      stat(cc.map((r) => r.cpu))
    }`,
  );
  console.log(
    `pairs, ccusage / forge: wall ${stat(cc.map((r, i) => r.wall / forge[i].wall))}x, cpu ${
      stat(cc.map((r, i) => r.cpu / forge[i].cpu))
    }x`,
  );
  const fifth = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] / 5;
  console.log(
    `the pool's cold read alone (${FLOOR_READERS} cat in parallel, nothing parsed) wall (s): ${
      stat(floor.map((r) => r.wall))
    }; cpu (s): ${stat(floor.map((r) => r.cpu))}; 5x ccusage's median asks wall <= ${
      fifth(cc.map((r) => r.wall)).toFixed(2)
    } s, cpu <= ${fifth(cc.map((r) => r.cpu)).toFixed(2)} s`,
  );
  console.log(
    `forge in-process: first scan+report (ms) ${
      stat(forge.map((r) => r.m.coldMs), 0)
    }; again with nothing changed (ms) ${stat(forge.map((r) => r.m.warmMs), 1)}`,
  );
  console.log(
    `forge peak RSS (MiB): ${stat(forge.map((r) => r.m.peakRssMiB), 0)}; moved: ${
      f.files[0]
    } files read, then ${f.files[1]} read / ${f.files[2]} reused, ${f.skipped} torn lines skipped`,
  );
  console.log(`pool holds ${f.total.messages} API messages`);

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
      ["cost_usd, no tier", untiered.total.toFixed(4), c.totals.totalCost.toFixed(4)],
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
  const noTierCost = new Map(untiered.byModel);
  for (const r of f.byModel) {
    const m = c.byModel.get(r.name);
    const same = m !== undefined &&
      [r.input_tokens, r.output_tokens, r.cache_creation_tokens, r.cache_read_tokens]
        .every((v, i) => v === m.tokens[i]);
    console.log(
      `${r.name.padEnd(20)}${pad(r.cost_usd.toFixed(2), 14)}${
        pad((noTierCost.get(r.name) ?? 0).toFixed(2), 16)
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
