// Reading a pipe into one reused buffer.
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { reusedReads } from "./reused_reads.ts";

/** A byte stream that hands out `chunks` one read at a time, then stays open or closes. */
function byteStream(chunks: Uint8Array[], close = true) {
  let cancelled: unknown = "not cancelled";
  const stream = new ReadableStream({
    type: "bytes",
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else if (close) {
        controller.close();
        // A BYOB read waiting when the stream closes ends with a zero-byte answer (Streams spec).
        controller.byobRequest?.respond(0);
      }
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { stream, cancelled: () => cancelled };
}

Deno.test("reusedReads: a child's pipe arrives whole, each read in the memory the last one used", async () => {
  const child = new Deno.Command("bash", {
    args: ["-c", "for i in $(seq 1 200); do echo line-$i; sleep 0.001; done"],
    stdout: "piped",
  }).spawn();
  let text = "";
  let previous: Uint8Array | null = null;
  let reads = 0;
  for await (const chunk of reusedReads(child.stdout)) {
    // The read before this one lent its memory to this one: its view is detached now.
    if (previous) strictEqual(previous.byteLength, 0);
    strictEqual(chunk.buffer.byteLength, 64 * 1024);
    text += new TextDecoder().decode(chunk);
    previous = chunk;
    reads++;
  }
  await child.status;
  strictEqual(text, Array.from({ length: 200 }, (_, i) => `line-${i + 1}\n`).join(""));
  strictEqual(reads > 1, true, `${reads} reads`);
});

Deno.test("reusedReads: a stream that is not a byte stream is read with its own reader", async () => {
  const enc = new TextEncoder();
  const chunks = await Array.fromAsync(
    reusedReads(ReadableStream.from([enc.encode("ab"), enc.encode("c")])),
    (c) => new TextDecoder().decode(c),
  );
  deepStrictEqual(chunks, ["ab", "c"]);
});

Deno.test("reusedReads: an abort cancels the stream and the loop throws the reason", async () => {
  const { stream, cancelled } = byteStream([new Uint8Array([1, 2])], false);
  const stop = new AbortController();
  const seen: number[] = [];
  await rejects(
    (async () => {
      for await (const chunk of reusedReads(stream, stop.signal)) {
        seen.push(...chunk);
        stop.abort(new Error("seat closed"));
      }
    })(),
    /seat closed/,
  );
  deepStrictEqual(seen, [1, 2]);
  strictEqual((cancelled() as Error).message, "seat closed");
  strictEqual(stream.locked, false);
});

Deno.test("reusedReads: leaving the loop early cancels the stream; an ended one is not cancelled", async () => {
  const early = byteStream([new Uint8Array([1]), new Uint8Array([2])]);
  for await (const _ of reusedReads(early.stream)) break;
  strictEqual(early.cancelled(), undefined);
  strictEqual(early.stream.locked, false);
  const whole = byteStream([new Uint8Array([3])]);
  deepStrictEqual(await Array.fromAsync(reusedReads(whole.stream), (c) => [...c]), [[3]]);
  strictEqual(whole.cancelled(), "not cancelled");
});
