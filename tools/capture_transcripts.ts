/**
 * Regenerates fixtures/transcripts/: runs the real `claude` CLI (the pinned binary) against the
 * fake Messages API with fixed scripts, session ids and prompt uuids, then copies each
 * transcript with this machine's temp paths (and kernel release) replaced by placeholders and
 * the bulk of the CLI's own system prompt and tool schemas elided (see the folder's README).
 *
 *   tools/deno.sh run --allow-all tools/capture_transcripts.ts [--out DIR]
 *
 * Timestamps, message ids and the CLI's own uuids differ on every run; the scripted text,
 * the usage numbers, the session ids and the prompt uuids do not.
 */
import { parseArgs } from "node:util";
import type { ReplyInput } from "../fixtures/fake_api/mod.ts";
import { startHarness } from "../tests/claude_support.ts";
import { saveTranscript } from "./transcript_scrub.ts";

/** One captured session: its script and the prompts sent, one turn each. */
interface Scenario {
  name: string;
  sessionId: string;
  replies: ReplyInput[];
  prompts: Array<{ text: string; uuid: string }>;
}

const text = (t: string, usage: ReplyInput["usage"]): ReplyInput => ({
  content: [{ type: "text", text: t }],
  usage,
});

export const SCENARIOS: Scenario[] = [
  {
    name: "plain_text",
    sessionId: "7a1e0000-0000-4000-8000-000000000001",
    replies: [text("Hello! The answer is 42.", { input_tokens: 120, output_tokens: 9 })],
    prompts: [{ text: "What is the answer?", uuid: "7a1e0000-0000-4000-8000-0000000000a1" }],
  },
  {
    name: "tool_bash",
    sessionId: "7a1e0000-0000-4000-8000-000000000002",
    replies: [
      {
        content: [
          { type: "text", text: "I'll create the file." },
          {
            type: "tool_use",
            name: "Bash",
            input: {
              command: "printf 'hello\\n' > hello.txt && cat hello.txt",
              description: "Write hello.txt",
            },
          },
        ],
        usage: { input_tokens: 300, output_tokens: 40, cache_creation_input_tokens: 250 },
      },
      text("Done: hello.txt contains hello.", {
        input_tokens: 30,
        output_tokens: 12,
        cache_read_input_tokens: 550,
      }),
    ],
    prompts: [{
      text: "Create hello.txt containing hello.",
      uuid: "7a1e0000-0000-4000-8000-0000000000b1",
    }],
  },
  {
    name: "multi_turn",
    sessionId: "7a1e0000-0000-4000-8000-000000000003",
    replies: [
      text("Noted: the code word is PINEAPPLE.", {
        input_tokens: 1000,
        output_tokens: 100,
        cache_creation_input_tokens: 500,
        cache_read_input_tokens: 0,
      }),
      {
        content: [
          {
            type: "thinking",
            thinking: "The user asked for the code word; it was PINEAPPLE.",
            signature: "sig-capture",
          },
          { type: "text", text: "The code word was PINEAPPLE." },
        ],
        usage: {
          input_tokens: 200,
          output_tokens: 50,
          cache_creation_input_tokens: 100,
          cache_read_input_tokens: 1500,
        },
      },
      text("Goodbye.", {
        input_tokens: 30,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 1700,
      }),
    ],
    prompts: [
      { text: "Remember the code word PINEAPPLE.", uuid: "7a1e0000-0000-4000-8000-0000000000c1" },
      { text: "What was the code word?", uuid: "7a1e0000-0000-4000-8000-0000000000c2" },
      { text: "Thanks, bye.", uuid: "7a1e0000-0000-4000-8000-0000000000c3" },
    ],
  },
];

async function capture(s: Scenario, outDir: string): Promise<string> {
  await using h = await startHarness({ replies: s.replies });
  const { proc, log } = h.spawn({
    argv: { sessionId: s.sessionId },
    canUseTool: (req) => ({ behavior: "allow", updatedInput: req.input }),
  });
  for (const p of s.prompts) {
    const mark = log.mark();
    proc.sendUserMessage(p.text, p.uuid);
    const result = await log.next("result", undefined, mark);
    if (result.is_error) throw new Error(`${s.name}: turn "${p.text}" failed: ${result.result}`);
  }
  const exit = await proc.close();
  if (exit.code !== 0) throw new Error(`${s.name}: claude exited ${exit.code}: ${exit.stderrTail}`);
  return await saveTranscript(h, s.sessionId, s.name, outDir);
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { out: { type: "string" } } });
  const outDir = values.out ?? new URL("../fixtures/transcripts", import.meta.url).pathname;
  await Deno.mkdir(outDir, { recursive: true });
  for (const s of SCENARIOS) {
    const out = await capture(s, outDir);
    const lines = (await Deno.readTextFile(out)).trim().split("\n").length;
    console.log(`${s.name}: ${lines} lines -> ${out}`);
  }
}
