import { assert, assertEquals } from "../../../tests/assert.ts";
import { TranscriptFile } from "./transcript_reader.ts";

const REAL = new URL("../../../fixtures/transcripts/tool_bash.jsonl", import.meta.url).pathname;

/** Every line of `text` with the byte it starts at, oldest first (the reference reading). */
function lines(text: string): Array<{ offset: number; text: string }> {
  const out: Array<{ offset: number; text: string }> = [];
  const enc = new TextEncoder();
  let offset = 0;
  for (const t of text.split("\n")) {
    if (t) out.push({ offset, text: t });
    offset += enc.encode(t).length + 1;
  }
  return out;
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function withFile(text: string, f: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "forge-reader-test-" });
  try {
    await Deno.writeTextFile(`${dir}/t.jsonl`, text);
    await f(`${dir}/t.jsonl`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("spec more: reading backwards yields every row of a real transcript, newest first, at its byte offset, whatever the chunk size", async () => {
  const text = await Deno.readTextFile(REAL);
  const want = lines(text).reverse();
  for (const chunkBytes of [7, 64, 4096, 1 << 20]) {
    using file = await TranscriptFile.open(REAL, { chunkBytes });
    assert(file);
    assertEquals(await all(file.backward()), want, `chunk ${chunkBytes}`);
  }
});

Deno.test("spec more: reading backwards from a row's offset yields only the rows above it", async () => {
  const text = await Deno.readTextFile(REAL);
  const ref = lines(text);
  using file = await TranscriptFile.open(REAL, { chunkBytes: 300 });
  assert(file);
  for (const i of [0, 1, 5, ref.length - 1]) {
    assert(await file.isRowStart(ref[i].offset));
    assertEquals(await all(file.backward(ref[i].offset)), ref.slice(0, i).reverse());
  }
  assert(!await file.isRowStart(ref[3].offset + 1), "a mid-line offset names no row");
  assert(!await file.isRowStart(file.size), "the end names no row");
  assert(!await file.isRowStart(-1));
});

Deno.test("spec more: reading forward from a row yields the rows after it up to a byte limit", async () => {
  const text = await Deno.readTextFile(REAL);
  const ref = lines(text);
  using file = await TranscriptFile.open(REAL, { chunkBytes: 333 });
  assert(file);
  assertEquals(await all(file.forward(ref[4].offset, file.size)), ref.slice(4));
  // A limit that ends inside row 6 yields rows 4 and 5 only: a cut line is not a row.
  const limit = ref[6].offset + 10 - ref[4].offset;
  assertEquals(await all(file.forward(ref[4].offset, limit)), ref.slice(4, 6));
});

Deno.test("spec more (read cap): a row starting further from the end than the cap is out of reach", async () => {
  const text = await Deno.readTextFile(REAL);
  const ref = lines(text);
  const size = new TextEncoder().encode(text).length;
  // The cap reaches exactly row 20's start: rows 20.. are read, row 19 (which ends past the
  // floor) is not.
  const capBytes = size - ref[20].offset;
  using file = await TranscriptFile.open(REAL, { capBytes, chunkBytes: 100 });
  assert(file);
  assertEquals(file.floor, ref[20].offset);
  assertEquals(await all(file.backward()), ref.slice(20).reverse());
  assert(!await file.isRowStart(ref[19].offset));
  // One byte less and row 20 is out too.
  using less = await TranscriptFile.open(REAL, { capBytes: capBytes - 1, chunkBytes: 100 });
  assert(less);
  assertEquals(await all(less.backward()), ref.slice(21).reverse());
});

Deno.test("spec more: torn lines, blank lines, a missing last newline and over-long lines do not stop a read", async () => {
  const long = `{"pad":"${"x".repeat(5000)}"}`;
  const text = `{"a":1}\n\n{"b":2,"torn\n${long}\n{"c":3}\n{"d":4`;
  await withFile(text, async (path) => {
    using file = await TranscriptFile.open(path, { chunkBytes: 16, maxLineBytes: 1000 });
    assert(file);
    const got = (await all(file.backward())).map((l) => l.text);
    // The over-long line is dropped whole; the torn one is yielded (the row parse rejects it).
    assertEquals(got, ['{"d":4', '{"c":3}', '{"b":2,"torn', '{"a":1}']);
    const fwd = (await all(file.forward(0, file.size))).map((l) => l.text);
    assertEquals(
      fwd,
      ['{"a":1}', '{"b":2,"torn', '{"c":3}'],
      "forward: the unterminated tail waits",
    );
  });
});

Deno.test("spec more: no file is no transcript (null), not an error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-reader-test-" });
  try {
    assertEquals(await TranscriptFile.open(`${dir}/absent.jsonl`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spec more: multibyte text keeps byte offsets, across chunk edges", async () => {
  const text = `{"t":"héllo wörld ✓"}\n{"t":"日本語のテキスト"}\n{"t":"🙂🙂"}\n`;
  await withFile(text, async (path) => {
    for (const chunkBytes of [1, 3, 5, 1024]) {
      using file = await TranscriptFile.open(path, { chunkBytes });
      assert(file);
      assertEquals(await all(file.backward()), lines(text).reverse());
    }
  });
});
