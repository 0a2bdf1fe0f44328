/**
 * Where a read of a transcript ended on a whole line, so that a later read of the same file
 * reads only what was appended since. The CLI only ever appends to a transcript; a live
 * session's grows by a turn while the rest of the pool stands still, and reading it whole again
 * on every usage subscribe would make a long session's cost grow with its length.
 */

/** Where a read ended on a whole line. */
export interface ReadEnd {
  /** The file's bytes read, up to and including its last line's newline. */
  offset: number;
  /** The working directory the lines read last named: the next record's, until one names
   * another (TranscriptParser.cwd). */
  cwd: string;
  /** The bytes just before `offset` (at most END_BYTES): an append leaves them as they were; a
   * file written anew over the same path is read whole. */
  last: Uint8Array;
}

export const END_BYTES = 64;

/** The last END_BYTES bytes of a file's lines, kept as a read goes through them. */
export class LastBytes {
  readonly #bytes = new Uint8Array(END_BYTES);
  #length = 0;

  /** Starts over: empty, or as the read that `end` closed ended. */
  reset(end?: ReadEnd | null): void {
    this.#length = end ? end.last.length : 0;
    if (end) this.#bytes.set(end.last);
  }

  /** The file's next lines read are `b[from, to)`: they follow the bytes kept so far. */
  keep(b: Uint8Array, from: number, to: number): void {
    const fresh = Math.min(to - from, END_BYTES);
    const kept = Math.min(this.#length, END_BYTES - fresh);
    this.#bytes.copyWithin(0, this.#length - kept, this.#length);
    this.#bytes.set(b.subarray(to - fresh, to), kept);
    this.#length = kept + fresh;
  }

  value(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }
}

/** Whether `file` still holds `end.last` just before `end.offset`; it is left at the offset. */
export async function endsAsBefore(file: Deno.FsFile, end: ReadEnd): Promise<boolean> {
  const want = end.last;
  await file.seek(end.offset - want.length, Deno.SeekMode.Start);
  const got = new Uint8Array(want.length);
  for (let at = 0; at < got.length;) {
    const n = await file.read(got.subarray(at));
    if (n === null) return false;
    at += n;
  }
  return got.every((byte, i) => byte === want[i]);
}
