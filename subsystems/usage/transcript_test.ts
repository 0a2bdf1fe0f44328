import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { readTranscript, TranscriptParser } from "./transcript.ts";
import { type ScriptedMessage, SessionLines } from "./sample_lines.ts";

const AT = new Date("2026-12-02T08:28:34.124Z");

function scripted(id: string, over: Partial<ScriptedMessage> = {}): ScriptedMessage {
  return {
    id: `msg_${id}`,
    requestId: `req_${id}`,
    model: "claude-opus-5-5",
    at: AT,
    input: 2712,
    output: 11,
    cacheCreation: 1500,
    cacheCreation1h: 500,
    cacheRead: 40_000,
    ...over,
  };
}

function parse(text: string): ReturnType<TranscriptParser["end"]> {
  const p = new TranscriptParser();
  p.push(text);
  return p.end();
}

Deno.test("spec usage: every assistant line of a message yields its scripted usage", () => {
  const s = new SessionLines("11111111-aaaa", "/home/me/demo/ws")
    .prompt("hello", AT)
    .message(scripted("a", { blocks: ["thinking", "text", "tool_use"] }))
    .message(scripted("b", { input: 7, output: 3, cacheCreation: 0, cacheCreation1h: 0 }))
    .lastPrompt("hello");
  const { records, skipped } = parse(s.text());
  assertEquals(skipped, 0);
  // One line per content block: 3 for msg_a, 1 for msg_b. Duplicates are the report's job.
  assertEquals(records.map((r) => r.key), [
    "msg_a:req_a",
    "msg_a:req_a",
    "msg_a:req_a",
    "msg_b:req_b",
  ]);
  assertEquals(records[0], {
    key: "msg_a:req_a",
    at: AT.getTime(),
    model: "claude-opus-5-5",
    cwd: "/home/me/demo/ws",
    requestId: "req_a",
    input: 2712,
    output: 11,
    cache_creation: 1500,
    cache_creation_1h: 500,
    cache_read: 40_000,
    fast: false,
  });
  assertEquals(records[3].input, 7);
  assertEquals(records[3].output, 3);
});

Deno.test("spec usage: unparseable lines are skipped and counted, never fatal", () => {
  const good = new SessionLines("22222222-bbbb", "/w").message(scripted("ok")).text();
  const tornUsage = good.slice(0, good.indexOf('"cache_read_input_tokens"') + 10);
  const text = [
    "this is not json",
    tornUsage, // a torn write that had reached the usage key
    '{"parentUuid":"x","isSidechain":false,"message":{"id":"msg_', // torn before it
    "",
    "   ",
    good.trimEnd(),
    '["an array", "usage"]',
  ].join("\n") + "\n";
  const { records, skipped } = parse(text);
  assertEquals(skipped, 4);
  assertEquals(records.length, 1);
  assertEquals(records[0].key, "msg_ok:req_ok");
});

Deno.test("transcript: a message without ids counts alone; <synthetic> lines are not API calls", () => {
  const line = (over: Record<string, unknown>) =>
    JSON.stringify({
      type: "assistant",
      timestamp: AT.toISOString(),
      message: {
        id: "msg_x",
        model: "claude-sonnet-5-5",
        usage: { input_tokens: 5, output_tokens: 1, speed: "fast" },
      },
      ...over,
    });
  const { records } = parse(
    [
      line({}), // no requestId
      line({ requestId: "req_s", message: { model: "<synthetic>", usage: { input_tokens: 0 } } }),
      line({ type: "progress", requestId: "req_p" }), // nested usage of another line type
    ].join("\n"),
  );
  assertEquals(records.length, 1);
  assertEquals(records[0].key, null);
  assertEquals(records[0].fast, true);
  assertEquals(records[0].cwd, "");
  assertEquals([records[0].cache_creation, records[0].cache_read], [0, 0]);
});

Deno.test("transcript: text split at any point parses the same as whole", () => {
  const text = new SessionLines("33333333-cccc", "/w/ü")
    .prompt("héllo ✓", AT)
    .message(scripted("a", { blocks: ["text", "tool_use"], text: "naïve ✓ 𝄞" }))
    .message(scripted("b"))
    .text();
  const whole = parse(text);
  for (const size of [1, 7, 64, 333]) {
    const p = new TranscriptParser();
    for (let i = 0; i < text.length; i += size) p.push(text.slice(i, i + size));
    assertEquals(p.end(), whole, `pieces of ${size}`);
  }
});

Deno.test("transcript: a file larger than one read chunk, multi-byte text across chunks", async () => {
  const dir = await Deno.makeTempDir({ prefix: "usage_transcript_" });
  try {
    const s = new SessionLines("44444444-dddd", "/w");
    const filler = "∑é✓".repeat(3000); // 3-byte characters: chunk edges fall mid-character
    for (let i = 0; i < 200; i++) s.message(scripted(`m${i}`, { input: i, text: filler }));
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(path, s.text());
    const { size } = await Deno.stat(path);
    assertEquals(size > 4 << 20, true, "file spans more than one 4 MiB chunk");
    const read = await readTranscript(path);
    assertEquals(read.skipped, 0);
    assertEquals(read.records.length, 200);
    assertEquals(read.records.reduce((n, r) => n + r.input, 0), (199 * 200) / 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
