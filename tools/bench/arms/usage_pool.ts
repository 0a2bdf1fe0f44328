/**
 * The usage bench's pool: sessions generated from one REAL CLI transcript. The template is
 * captured by running the pinned `claude` CLI against the fake Messages API (three turns: two
 * Bash round trips and a thinking+text reply); every generated session repeats its lines with
 * fresh message ids, request ids, usage, models and timestamps, with subagent transcripts,
 * forks and torn writes among them as a real pool has.
 */
import { join } from "node:path";
import { slugFor } from "../../../subsystems/usage/sample_lines.ts";
import { startHarness } from "../../../tests/claude_support.ts";

type Obj = Record<string, unknown>;
let seed = 1;
const rand = () => { // mulberry32: the same mix of sizes, models and usage for the same seed
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

/** Capture one real transcript: header (turn 1), a repeatable block (turns 2-3), the tail. */
export async function captureTemplate() {
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
export type Template = Awaited<ReturnType<typeof captureTemplate>>;

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

export async function generate(
  t: Template,
  root: string,
  size: number,
  seedOf: number,
): Promise<{ files: number; bytes: number }> {
  const cwds = Array.from({ length: 12 }, (_, i) => `/home/dev/src/project-${i}`);
  let bytes = 0, files = 0;
  const end = Date.now();
  const put = async (path: string, text: string) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
    bytes += text.length; // the pool is ASCII
    files++;
  };
  seed = seedOf >>> 0;
  while (bytes < size) {
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
