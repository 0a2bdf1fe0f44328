/**
 * How many times a session was compacted before a row: the `compaction_count` a conversation
 * seeded from its transcript carries for the part of the history it does not hold (spec: session
 * > conversation, "with the compaction count"). A compaction writes one `system` row with
 * `"subtype":"compact_boundary"`; the CLI writes compact JSON, and that exact text can only be the
 * key (inside a string a quote is escaped), so the count is a byte search, never a parse.
 *
 * The search skips (Horspool: a window whose last byte the needle cannot end on moves on by up to
 * the needle's length). It reads every byte from the file's start up to the seeded floor once,
 * on a resumed seat's first read: a search stepping on each quote (JSON's most common byte) took
 * a second of CPU on a 200 MB transcript of 20,000 turns (tools/bench/history.ts).
 */
import { READ_CAP_BYTES } from "./transcript_reader.ts";

const NEEDLE = new TextEncoder().encode('"subtype":"compact_boundary"');
const CHUNK = 1 << 20;
/** How far the window moves when its last byte is `b`: the needle's bad-character table. */
const SKIP = new Uint8Array(256).fill(NEEDLE.length);
for (let i = 0; i < NEEDLE.length - 1; i++) SKIP[NEEDLE[i]] = NEEDLE.length - 1 - i;

/**
 * The compaction boundaries written before byte `end` (the whole file when null), within the
 * read cap below the file's end; 0 when there is no file.
 */
export async function countCompactions(
  path: string,
  end: number | null = null,
  capBytes = READ_CAP_BYTES,
): Promise<number> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return 0;
    throw e;
  }
  using _ = file;
  const size = (await file.stat()).size;
  const stop = Math.min(size, end ?? size);
  let pos = Math.max(0, size - capBytes);
  await file.seek(pos, Deno.SeekMode.Start);
  const buf = new Uint8Array(CHUNK + NEEDLE.length);
  let kept = 0; // bytes of the previous chunk's tail kept at the front of `buf`
  let count = 0;
  while (pos < stop) {
    const want = Math.min(CHUNK, stop - pos);
    let got = 0;
    while (got < want) {
      const n = await file.read(buf.subarray(kept + got, kept + want));
      if (n === null) break;
      got += n;
    }
    if (got === 0) break;
    const view = buf.subarray(0, kept + got);
    count += occurrences(view);
    // Keep the tail that could start a match cut by the chunk's end.
    const tail = Math.min(NEEDLE.length - 1, view.length);
    buf.copyWithin(0, view.length - tail, view.length);
    kept = tail;
    pos += got;
  }
  return count;
}

/** The needle's occurrences wholly inside `view`. */
export function occurrences(view: Uint8Array): number {
  const last = NEEDLE.length - 1;
  let count = 0;
  for (let at = 0; at + last < view.length;) {
    const end = view[at + last];
    if (end === NEEDLE[last] && matches(view, at)) count++;
    at += SKIP[end];
  }
  return count;
}

function matches(view: Uint8Array, at: number): boolean {
  for (let i = 0; i < NEEDLE.length - 1; i++) if (view[at + i] !== NEEDLE[i]) return false;
  return true;
}
