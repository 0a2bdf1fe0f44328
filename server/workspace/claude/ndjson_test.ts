// The stdout reader and the stderr tail.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { readNdjson, TailBuffer } from "./ndjson.ts";
import { EventQueue } from "./event_queue.ts";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return ReadableStream.from(chunks.map((c) => enc.encode(c)));
}

Deno.test("readNdjson: lines split across chunks, CRLF, blanks, bad lines, an unterminated last line", async () => {
  const stream = streamOf(
    '{"type":"a","x":',
    '1}\r\n\n{"ty',
    'pe":"b"}\nnot json\n[1]\n{"no":1}\n{"type":"c"}',
  );
  const out = [];
  for await (const item of readNdjson(stream)) {
    out.push(item.kind === "frame" ? item.frame : item.reason.split(":")[0]);
  }
  deepStrictEqual(out, [
    { type: "a", x: 1 },
    { type: "b" },
    "not JSON",
    "not a JSON object",
    "no string `type` field",
    {
      type: "c",
    },
  ]);
});

Deno.test("readNdjson: a multi-byte character split between chunks survives", async () => {
  const bytes = new TextEncoder().encode('{"type":"t","s":"é→😀"}\n');
  const cut = 20;
  const stream = ReadableStream.from([bytes.slice(0, cut), bytes.slice(cut)]);
  const items = await Array.fromAsync(readNdjson(stream));
  deepStrictEqual(items, [{ kind: "frame", frame: { type: "t", s: "é→😀" } }]);
});

Deno.test("TailBuffer keeps the last bytes", () => {
  const t = new TailBuffer(8);
  const enc = new TextEncoder();
  t.push(enc.encode("abc"));
  strictEqual(t.text(), "abc");
  t.push(enc.encode("defgh"));
  strictEqual(t.text(), "abcdefgh");
  t.push(enc.encode("ij"));
  strictEqual(t.text(), "cdefghij");
  t.push(enc.encode("0123456789"));
  strictEqual(t.text(), "23456789");
});

Deno.test("EventQueue: buffers before the consumer, wakes a waiting consumer, drops after return", async () => {
  const q = new EventQueue<number>();
  q.push(1);
  const it = q[Symbol.asyncIterator]();
  deepStrictEqual(await it.next(), { value: 1, done: false });
  const waiting = it.next();
  q.push(2);
  deepStrictEqual(await waiting, { value: 2, done: false });
  q.push(3);
  q.end();
  q.push(4);
  deepStrictEqual(await Array.fromAsync(q), [3]);
  const r = new EventQueue<number>();
  await r.return();
  r.push(5);
  strictEqual(r.size, 0);
});
