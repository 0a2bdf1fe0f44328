/**
 * Regenerates this folder's transcripts: the real `claude` CLI (the pinned binary) against the
 * fake Messages API, in the shapes a turn boundary has to be decided on - a prompt queued mid-turn
 * (a `queued_command` attachment carrying `source_uuid`), a backgrounded task whose ending lands
 * in a later turn, an ending delivered inside its own turn, and `/compact` plus an interrupt.
 *
 *   tools/deno.sh run --allow-all server/workspace/conversation/testdata/capture.ts [--out DIR]
 *
 * Paths are scrubbed and bulky lines elided exactly as `tools/capture_transcripts.ts` does (see
 * `fixtures/transcripts/README.md`); queued prompts and endings are timing-dependent, so each
 * scenario checks the shape it was written for and fails rather than saving the wrong one.
 */
import { parseArgs } from "node:util";
import type { ReplyInput } from "../../../../fixtures/fake_api/mod.ts";
import { type Spawned, startHarness } from "../../../../tests/claude_support.ts";
import { saveTranscript } from "../../../../tools/transcript_scrub.ts";

const id = (n: string) => `7a1e0000-0000-4000-8000-${n.padStart(12, "0")}`;
const say = (text: string): ReplyInput => ({ content: [{ type: "text", text }] });
const bash = (command: string, description: string, background = false): ReplyInput => ({
  content: [{
    type: "tool_use",
    name: "Bash",
    input: { command, description, ...(background ? { run_in_background: true } : {}) },
  }],
});
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Scenario {
  name: string;
  sessionId: string;
  replies: ReplyInput[];
  /** Drives the process; resolves once the transcript holds what the scenario is about. */
  run(s: Spawned): Promise<void>;
  /** A substring the saved transcript must contain. */
  expect: string;
}

async function turn({ proc, log }: Spawned, text: string, uuid: string): Promise<void> {
  const mark = log.mark();
  proc.sendUserMessage(text, uuid);
  await log.next("result", undefined, mark);
}

export const SCENARIOS: Scenario[] = [{
  name: "queued_prompt",
  sessionId: id("4"),
  replies: [bash("sleep 3; echo slept", "Sleep"), say("Slept; also saw your note."), say("Bye.")],
  async run(s) {
    const mark = s.log.mark();
    s.proc.sendUserMessage("Sleep three seconds.", id("d1"));
    await s.log.waitFor((f) => f.type === "assistant", "the tool call", mark);
    await pause(800);
    s.proc.sendUserMessage("Also, note this mid-turn.", id("d2"));
    await s.log.next("result", undefined, mark);
    await turn(s, "Thanks.", id("d3"));
  },
  expect: '"source_uuid":"7a1e0000-0000-4000-8000-0000000000d2"',
}, {
  name: "background_ending",
  sessionId: id("5"),
  replies: [
    {
      content: [
        { type: "text", text: "Starting it." },
        ...bash("sleep 2", "bg job", true).content!,
      ],
    },
    say("Started."),
    say("Hello again."),
    say("The background job finished."),
    say("You are welcome."),
  ],
  async run(s) {
    await turn(s, "Run a background job.", id("e1"));
    await turn(s, "Say hello meanwhile.", id("e2"));
    await s.log.next("result", undefined, s.log.mark());
    await turn(s, "Thanks.", id("e3"));
  },
  expect: '"origin":{"kind":"task-notification"',
}, {
  name: "ending_mid_turn",
  sessionId: id("7"),
  replies: [
    bash("sleep 1", "bg job", true),
    bash("sleep 4; echo fg", "fg wait"),
    say("Both done."),
  ],
  async run(s) {
    await turn(s, "Background then foreground.", id("a7"));
  },
  expect: '"commandMode":"task-notification"',
}, {
  name: "compact_interrupt",
  sessionId: id("6"),
  replies: [
    say("First answer."),
    say("After compaction."),
    { ...say("slow ".repeat(12)), chunk_chars: 2, chunk_delay_ms: 100 },
    say("After interrupt."),
  ],
  async run(s) {
    await turn(s, "First question.", id("f1"));
    await turn(s, "/compact", id("f2"));
    await turn(s, "Question after compaction.", id("f3"));
    const mark = s.log.mark();
    s.proc.sendUserMessage("Slow one.", id("f4"));
    await s.log.waitFor((f) => f.type === "stream_event", "a delta", mark);
    await pause(400);
    await s.proc.interrupt();
    await s.log.next("result", undefined, mark);
    await turn(s, "After the interrupt.", id("f5"));
  },
  expect: '"subtype":"compact_boundary"',
}];

async function capture(s: Scenario, outDir: string): Promise<string> {
  await using h = await startHarness({ replies: s.replies });
  const spawned = h.spawn({
    argv: { sessionId: s.sessionId },
    canUseTool: (req) => ({ behavior: "allow", updatedInput: req.input }),
  });
  await s.run(spawned);
  const exit = await spawned.proc.close();
  if (exit.code !== 0) throw new Error(`${s.name}: claude exited ${exit.code}`);
  return await saveTranscript(h, s.sessionId, s.name, outDir, s.expect);
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { out: { type: "string" } } });
  const outDir = values.out ?? new URL(".", import.meta.url).pathname;
  for (const s of SCENARIOS) console.log(`${s.name} -> ${await capture(s, outDir)}`);
}
