/**
 * The byte reader (transcript_bytes.ts) against the whole-line parse (transcript.ts): the same
 * records and skipped count, on the real CLI's transcripts, generated sessions, hand-made odd
 * lines and random damage, each read whole and in reads cut small enough to split every line,
 * key and multi-byte character: exactly the same numbers.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { COLS, HASH, keyHash, keys, packRead, unpack } from "./packed.ts";
import { readTranscript } from "./transcript.ts";
import { TranscriptBytes } from "./transcript_bytes.ts";
import { oddLines } from "./odd_lines.ts";
import { SessionLines } from "./sample_lines.ts";

const enc = new TextEncoder();

/** Writes `bytes`, reads them both ways, and asserts the answers are equal. */
async function same(dir: string, bytes: Uint8Array, label: string, cuts = [1, 7, 4096]) {
  const path = join(dir, "t.jsonl");
  await Deno.writeFile(path, bytes);
  const exact = await readTranscript(path);
  const every = (readBytes?: number) =>
    new TranscriptBytes((s) => s, { readBytes, keepRepeats: true });
  assertEquals(every().readSync(path), exact, label);
  assertEquals(await every().read(path), exact, `${label} (async)`);
  for (const readBytes of cuts) assertEquals(every(readBytes).readSync(path), exact, label);
  // The key hash the reader's WebAssembly made is the one `keyHash` makes of the key string
  // (the report's repeat check meets keys from both).
  const packed = new TranscriptBytes((s) => s, { keepRepeats: true }).readPackedSync(path);
  keys(packed).keys.forEach((key, i) => {
    assertEquals(packed.nums[i * COLS + HASH], key === null ? -1 : keyHash(key), label);
  });
  // What the scan keeps: a line repeating the message before it dropped, the same either way.
  const kept = unpack(packRead(exact), (s) => s);
  assertEquals(
    new TranscriptBytes().readSync(path).records.map((r) => r.key),
    kept.records.map((r) => r.key),
    label,
  );
  return exact;
}

async function withDir(body: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "usage_bytes_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const fixtures = ["plain_text", "tool_bash", "multi_turn"].map((n) =>
  fileURLToPath(new URL(`../../fixtures/transcripts/${n}.jsonl`, import.meta.url))
);

Deno.test("usage bytes: the real CLI's transcripts read as the whole-line parse reads them", async () => {
  await withDir(async (dir) => {
    for (const path of fixtures) {
      const read = await same(dir, await Deno.readFile(path), path);
      assertEquals(read.skipped, 0);
      if (read.records.length === 0) throw new Error(`${path}: no records`);
    }
  });
});

Deno.test("usage bytes: generated sessions, repeated messages included, read the same", async () => {
  await withDir(async (dir) => {
    const s = new SessionLines("33333333-cccc", "/home/dév/ws ü");
    for (let i = 0; i < 40; i++) {
      s.prompt(`turn ${i}`, new Date(Date.UTC(2026, 11, 1 + (i % 31), i % 24, 7, 9, i)));
      s.message({
        id: `msg_${i}`,
        requestId: `req_${i}`,
        model: i % 3 ? "claude-opus-5-5" : "claude-haiku-5-5[1m]",
        at: new Date(Date.UTC(2025, i % 12, 1 + (i % 28), 3, 4, 5, 6)),
        input: i * 31,
        output: i,
        cacheCreation: i * 7,
        cacheCreation1h: i * 3,
        cacheRead: i * 1000,
        speed: i % 5 ? "standard" : "fast",
        blocks: ["thinking", "text", "tool_use"],
        text: 'wörds "quoted" \\ back\tslash '.repeat(i * 3),
      });
    }
    const text = s.lastPrompt("bye").text();
    const read = await same(dir, enc.encode(text), "session", [1, 13, 997]);
    assertEquals(read.records.length, 120);
  });
});

Deno.test("usage bytes: odd, torn and hostile lines read the same", async () => {
  await withDir(async (dir) => {
    const lines = oddLines();
    for (const [label, bytes] of lines) await same(dir, bytes, label, [1, 5]);
    // All of them in one file, one after another, and CRLF line ends.
    const all = lines.flatMap(([, b]) => [...b, 0x0a]);
    await same(dir, new Uint8Array(all), "all odd lines");
    const crlf = all.flatMap((c) => (c === 0x0a ? [0x0d, 0x0a] : [c]));
    await same(dir, new Uint8Array(crlf), "all odd lines, CRLF");
    // A byte order mark, which the text decode drops.
    await same(dir, new Uint8Array([0xef, 0xbb, 0xbf, ...all]), "BOM");
  });
});

Deno.test("usage bytes: a line longer than the reader's memory grows it", async () => {
  await withDir(async (dir) => {
    const s = new SessionLines("44444444-dddd", "/w").message({
      id: "msg_big",
      requestId: "req_big",
      model: "claude-opus-5-5",
      at: new Date(),
      input: 1,
      output: 2,
      cacheCreation: 3,
      cacheRead: 4,
      text: "z".repeat(9 << 20),
    });
    const read = await same(dir, enc.encode(s.text()), "9 MiB line", []);
    assertEquals(read.records.length, 1);
  });
});

Deno.test("usage bytes: random damage to real lines is skipped or counted as the parse does", async () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const real = (await Promise.all(fixtures.map((f) => Deno.readFile(f))))
    .flatMap((b) => new TextDecoder().decode(b).trim().split("\n"))
    .filter((l) => l.includes('"usage"'))
    .map((l) => enc.encode(l));
  const alphabet = enc.encode('{}[]":,\\ \t0123456789.eE-+truefalsnu\u0001\u00e9x');
  await withDir(async (dir) => {
    for (let round = 0; round < 60; round++) {
      const out: number[] = [];
      for (let k = 0; k < 8; k++) {
        const line = [...real[rand(real.length)]];
        const at = rand(line.length);
        const op = rand(4);
        if (op === 0) line.length = at; // torn
        else if (op === 1) line[at] = alphabet[rand(alphabet.length)];
        else if (op === 2) line.splice(at, 0, alphabet[rand(alphabet.length)]);
        else line.splice(at, 1 + rand(8));
        out.push(...line, 0x0a);
      }
      await same(dir, new Uint8Array(out), `round ${round}`, [3]);
    }
  });
});

Deno.test("usage bytes: timestamps of any day and counts of any size read as the parse reads them", async () => {
  let seed = 11;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    // Every day from 1970 to 2100, leap days and month ends included.
    const at = new Date(Date.UTC(1970, 0, 1) + rand(47_847) * 86_400_000 + rand(86_400_000));
    const input = [rand(10), rand(1e6) * 1e9 + rand(1e9), 2 ** 53 + rand(9)][rand(3)];
    lines.push(JSON.stringify({
      type: "assistant",
      timestamp: at.toISOString(),
      requestId: `req_${i}`,
      message: { id: `msg_${i}`, model: "m", usage: { input_tokens: input, output_tokens: i } },
    }));
  }
  await withDir(async (dir) => {
    const read = await same(dir, enc.encode(lines.join("\n")), "timestamps", []);
    assertEquals(read.records.length, 3000);
  });
});

Deno.test("usage bytes: split reads, escaped quotes, CRLF, a torn last line and usage in a string", async () => {
  const line = (id: string, input: number, text: string) =>
    JSON.stringify({
      type: "assistant",
      cwd: "/w/p",
      timestamp: "2026-12-02T09:56:26.643Z",
      requestId: `req_${id}`,
      message: {
        id: `msg_${id}`,
        model: "claude-opus-5-5",
        content: [{ type: "text", text }],
        usage: { input_tokens: input, output_tokens: 2 },
      },
    });
  const lines = [
    line("a", 10, 'she said "usage": {"input_tokens": 999} \\"'), // escaped quotes around the key
    JSON.stringify({ type: "user", message: { content: 'what is my "usage" today?' } }),
    line("b", 20, "x".repeat(300)),
    line("c", 30, "y").slice(0, -40), // the writer was cut off: the file's last line, no newline
  ];
  const text = lines.slice(0, 3).map((l) => l + "\r\n").join("") + lines[3];
  await withDir(async (dir) => {
    // Reads of 64 bytes cut every line, and the `"usage"` keys, across reads.
    const read = await same(dir, enc.encode(text), "named cases", [1, 6, 64]);
    assertEquals(read.records.map((r) => [r.key, r.input, r.output, r.cwd]), [
      ["msg_a:req_a", 10, 2, "/w/p"],
      ["msg_b:req_b", 20, 2, "/w/p"],
    ]);
    assertEquals(read.skipped, 1); // the torn last line; the user line's "usage" is no count
  });
});
