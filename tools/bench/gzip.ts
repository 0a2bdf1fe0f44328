/**
 * Gzip bench: compressing a big frame for a kind-3 client, the ways this runtime offers, and what
 * each holds the one JS thread for (the time every other connection waits).
 *
 *   tools/deno.sh task bench gzip [--rounds 7] [--mb 3.5]
 *
 * One JSON text of --mb MB (rows shaped like a conversation page's) is gzipped whole, arms
 * interleaved round by round, each at its default level:
 *   zlib async       node:zlib `gzip`: forge's way (in Node it runs on the thread pool; the
 *                    stall column says what it does in this runtime)
 *   zlib sync        node:zlib `gzipSync`
 *   fflate sync      fflate `gzipSync` (npm, pure JS)
 *   CompressionStream the web API's "gzip"
 * Per arm: the wall time to the compressed bytes, the event loop's longest stall meanwhile (a
 * 1 ms interval's worst gap), and the output size. Floor: TextEncoder.encode of the same text,
 * which every arm needs first.
 */
import { gzip, gzipSync } from "node:zlib";
import { gzipSync as fflateGzip } from "fflate";
import { spread } from "./support/stats.ts";
import { numberFlag } from "./support/flags.ts";

const ROUNDS = numberFlag("--rounds", 7);
const MB = numberFlag("--mb", 3.5);

const rows: unknown[] = [];
let text = "";
for (let i = 0; text.length < MB * 1e6; i++) {
  rows.push({
    type: i % 3 ? "assistant" : "user",
    uuid: crypto.randomUUID(),
    message: { content: [{ type: "text", text: `row ${i}: ` + "lorem ipsum dolor ".repeat(4) }] },
  });
  if (i % 1000 === 999) text = JSON.stringify(rows);
}
text = JSON.stringify(rows);

const ARMS: Record<string, (bytes: Uint8Array) => Promise<Uint8Array>> = {
  "zlib async": (b) =>
    new Promise((res, rej) => gzip(b, (err, out) => (err ? rej(err) : res(new Uint8Array(out))))),
  "zlib sync": (b) => Promise.resolve(new Uint8Array(gzipSync(b))),
  "fflate sync": (b) => Promise.resolve(fflateGzip(b)),
  "CompressionStream": async (b) =>
    new Uint8Array(
      await new Response(
        new Blob([b as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
          new CompressionStream("gzip"),
        ),
      )
        .arrayBuffer(),
    ),
};

const wall: Record<string, number[]> = {};
const stall: Record<string, number[]> = {};
const size: Record<string, number> = {};

/** Runs `fn` while a 1 ms interval watches the event loop: wall ms and the worst gap. */
async function watched<T>(fn: () => Promise<T>): Promise<{ ms: number; gap: number; out: T }> {
  let last = performance.now();
  let gap = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  last = performance.now();
  const t0 = performance.now();
  const out = await fn();
  const ms = performance.now() - t0;
  gap = Math.max(gap, performance.now() - last);
  clearInterval(tick);
  return { ms, gap, out };
}

const names = Object.keys(ARMS);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...names].reverse() : names;
  const enc = await watched(() => Promise.resolve(new TextEncoder().encode(text)));
  (wall["floor: encode"] ??= []).push(enc.ms);
  (stall["floor: encode"] ??= []).push(enc.gap);
  for (const name of order) {
    const bytes = new TextEncoder().encode(text);
    const got = await watched(() => ARMS[name](bytes));
    (wall[name] ??= []).push(got.ms);
    (stall[name] ??= []).push(got.gap);
    size[name] = got.out.length;
  }
}
console.log(
  `gzip of a ${(text.length / 1e6).toFixed(1)} MB JSON text, ${ROUNDS} interleaved rounds, ` +
    `${navigator.hardwareConcurrency} cores; ms, median (min..max):`,
);
for (const name of ["floor: encode", ...names]) {
  const out = size[name] ? `, ${(size[name] / 1024).toFixed(0)} KiB out` : "";
  console.log(
    `  ${name.padEnd(18)} wall ${spread(wall[name], 1).padEnd(22)} ` +
      `JS thread's worst stall ${spread(stall[name], 1)}${out}`,
  );
}
