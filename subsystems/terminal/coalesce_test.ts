import { ReadCoalescer, SMALL_BYTES } from "./coalesce.ts";

const bytes = (...xs: number[]) => new Uint8Array(xs);
/** A read as big as a full PTY buffer gives: the start of a flood. */
const full = (fill: number) => new Uint8Array(SMALL_BYTES).fill(fill);

/** The chunks that left carry every byte that was read, once each, in the order read. */
function assertEveryByteOnce(out: Uint8Array[], sent: number[]): void {
  const got = out.flatMap((b) => [...b]);
  if (got.length !== sent.length || got.some((b, i) => b !== sent[i])) {
    throw new Error(`${got.length} bytes out of ${sent.length}`);
  }
}

Deno.test("coalesce: a read goes out at once, as a copy", () => {
  const out: Uint8Array[] = [];
  const c = new ReadCoalescer((b) => out.push(b), 60_000, 1 << 20);
  try {
    const read = bytes(1, 2, 3);
    c.read(read);
    read[0] = 9; // the stream reuses its buffer
    if (out.length !== 1 || out[0].join() !== "1,2,3") throw new Error(`${out.map(String)}`);
  } finally {
    c.dispose();
  }
});

Deno.test("coalesce: small reads (typing, a prompt) are never held", () => {
  const out: Uint8Array[] = [];
  // A hold of a minute: anything held would still be held at the end.
  const c = new ReadCoalescer((b) => out.push(b), 60_000, 1 << 20);
  try {
    for (let i = 0; i < 100; i++) c.read(bytes(0x78));
    if (out.length !== 100) throw new Error(`${out.length} of 100 echoes went out`);
  } finally {
    c.dispose();
  }
});

Deno.test("coalesce: the reads after a big one are held and leave together, in order, by size", () => {
  const out: Uint8Array[] = [];
  // A hold of a minute: nothing here leaves by the timer, only by the bound or a flush.
  const c = new ReadCoalescer((b) => out.push(b), 60_000, SMALL_BYTES + 6);
  try {
    c.read(full(1)); // out at once: nothing came before it
    c.read(bytes(2, 3));
    c.read(full(4)); // held: 1,026 bytes
    if (out.length !== 1) throw new Error(`${out.length} chunks before the bound`);
    c.read(bytes(5, 6, 7, 8, 9)); // 1,031 held: over the bound of 1,030
    c.read(bytes(10));
    c.flush();
    c.flush(); // nothing held: nothing sent
    const sizes = out.map((b) => b.length).join();
    if (sizes !== `${SMALL_BYTES},${SMALL_BYTES + 7},1`) throw new Error(sizes);
    const second = out[1];
    if (second[0] !== 2 || second[2] !== 4 || second.at(-1) !== 9) throw new Error("order");
  } finally {
    c.dispose();
  }
});

Deno.test("coalesce: every byte of a long run of reads leaves exactly once, in order", () => {
  const out: Uint8Array[] = [];
  const c = new ReadCoalescer((b) => out.push(b), 60_000, 4096);
  try {
    const sent: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const read = new Uint8Array(1 + (i * 7) % 1500).map((_, j) => (i + j) & 0xff);
      sent.push(...read);
      c.read(read);
    }
    c.flush();
    assertEveryByteOnce(out, sent);
    if (out.some((b) => b.length > 4096 + 1500)) throw new Error("a chunk past the bound");
    if (out.length > 3000 / 2) throw new Error(`${out.length} chunks: the run was not gathered`);
  } finally {
    c.dispose();
  }
});

Deno.test("coalesce: with headroom, each chunk lies that far into a buffer of its own", () => {
  const out: Uint8Array[] = [];
  const c = new ReadCoalescer((b) => out.push(b), 60_000, 4096, 7);
  try {
    const sent: number[] = [];
    for (let i = 0; i < 400; i++) {
      // Big reads (a flood, held and gathered) and small ones (passed on at once), mixed.
      const read = new Uint8Array(i % 3 === 0 ? 5 : SMALL_BYTES + i).map((_, j) => (i + j) & 0xff);
      sent.push(...read);
      c.read(read);
    }
    c.flush();
    assertEveryByteOnce(out, sent);
    if (out.some((b) => b.byteOffset !== 7)) throw new Error("a chunk without its 7 bytes of room");
    if (new Set(out.map((b) => b.buffer)).size !== out.length) throw new Error("a shared buffer");
    if (out.length > 400 / 2) throw new Error(`${out.length} chunks: the flood was not gathered`);
  } finally {
    c.dispose();
  }
});
