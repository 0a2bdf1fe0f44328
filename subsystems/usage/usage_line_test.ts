// The fast usage reading must give exactly the whole-line parse's records: on the real CLI's
// transcripts, on generated pools (duplicates included), and on every odd shape it must hand
// back to the whole-line parse. spec: Subjects > usage; issue 14 (exact numbers, fewer parses).
import { assertEquals } from "../../tests/assert.ts";
import { type ScriptedMessage, SessionLines } from "./sample_lines.ts";
import { TranscriptParser } from "./transcript.ts";
import { fastLineValue } from "./usage_line.ts";

function both(text: string) {
  const fast = new TranscriptParser(undefined, false);
  const exact = new TranscriptParser(undefined, true);
  fast.push(text);
  exact.push(text);
  return { fast: fast.end(), exact: exact.end() };
}

const REAL = [
  "../../fixtures/transcripts/tool_bash.jsonl",
  "../../fixtures/transcripts/multi_turn.jsonl",
  "../../fixtures/transcripts/plain_text.jsonl",
  "../../server/workspace/conversation/testdata/background_ending.jsonl",
  "../../server/workspace/conversation/testdata/compact_interrupt.jsonl",
  "../../server/workspace/conversation/testdata/ending_mid_turn.jsonl",
  "../../server/workspace/conversation/testdata/queued_prompt.jsonl",
];

Deno.test("usage line: the real CLI's transcripts read the same fast and whole", async () => {
  let counted = 0;
  for (const rel of REAL) {
    const text = await Deno.readTextFile(new URL(rel, import.meta.url));
    const { fast, exact } = both(text);
    assertEquals(fast, exact, rel);
    counted += fast.records.length;
    // Every usage line of these files takes the fast path: none needed the whole parse.
    for (const line of text.split("\n").filter((l) => l.includes('"usage":{'))) {
      assertEquals(
        fastLineValue(line, 0, line.length) !== null,
        true,
        `${rel}: ${line.slice(0, 80)}`,
      );
    }
  }
  assertEquals(counted > 10, true, `records read: ${counted}`);
});

Deno.test("usage line: generated pools with repeated messages read the same", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const models = ["claude-opus-5-5", "claude-haiku-5-5", "claude-sonnet-5"];
  const s = new SessionLines("22222222-bbbb", "/home/me/ünïcode ws");
  for (let i = 0; i < 400; i++) {
    const m: ScriptedMessage = {
      id: `msg_${i % 350}`, // some ids repeat: duplicates are the report's to fold
      requestId: `req_${i % 350}`,
      model: models[Math.floor(rand() * 3)],
      at: new Date(Date.UTC(2026, 10, 1 + Math.floor(rand() * 30))),
      input: Math.floor(rand() * 5000),
      output: Math.floor(rand() * 900),
      cacheCreation: 100,
      cacheCreation1h: Math.floor(rand() * 100),
      cacheRead: Math.floor(rand() * 90_000),
      speed: rand() < 0.1 ? "fast" : "standard",
      blocks: rand() < 0.5 ? ["thinking", "text"] : ["tool_use"],
      text: 'a "quoted" {brace} [bracket] \\ usage":{ text '.repeat(1 + Math.floor(rand() * 20)),
    };
    s.prompt(`prompt ${i}`, m.at).message(m);
  }
  const { fast, exact } = both(s.text());
  assertEquals(fast, exact);
  assertEquals(fast.records.length > 400, true);
});

const usage = '"usage":{"input_tokens":5,"output_tokens":2,"cache_creation":{"x":1}}';
const line = (message: string, tail = ',"requestId":"r","type":"assistant","timestamp":"t"') =>
  `{"parentUuid":null,"cwd":"/a","message":{${message}}${tail}}`;

Deno.test("usage line: shapes it does not know go to the whole-line parse, same answer", () => {
  const odd = [
    // cwd and type before the message (an older CLI's key order): read fast, same value
    `{"cwd":"/old","type":"assistant","message":{"id":"m","model":"x","content":[],${usage}},"requestId":"r"}`,
    // a tool input carrying its own usage and message keys before the real usage
    line(
      `"id":"m","model":"x","content":[{"type":"tool_use","input":{"message":{"usage":{"input_tokens":99}}}}],${usage}`,
    ),
    // a nested usage AFTER the message's own: the last one is not the message's
    line(`"id":"m","model":"x","content":[],${usage},"extra":{"usage":{"input_tokens":7}}`),
    // two records run together by a torn write: the whole parse skips it
    `{"parentUuid":"x","message":{"id":"a","content":[` + line(`"id":"m","content":[],${usage}`),
    // a line cut short after the usage
    line(`"id":"m","model":"x","content":[],${usage}`).slice(0, -20),
    // no content key, usage first, whitespace around the line
    `  ${line(`${usage},"id":"m"`)}  `,
    // the message is the line's first key; nothing after it
    `{"message":{"id":"m","content":[],${usage}}}`,
    // a string value that holds braces and an escaped quote after the usage
    line(`"id":"m","content":[],${usage},"stop":"}\\"}"`),
  ];
  for (const text of odd) {
    const { fast, exact } = both(text + "\n");
    assertEquals(fast, exact, text);
  }
});
