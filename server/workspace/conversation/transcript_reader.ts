/**
 * Reading a session's JSONL transcript by byte offset, in bounded chunks, never the whole file.
 * spec: "A cursor below the held window ... the page is read from the session's own transcript
 * on disk by the ROW the page above stopped at: the transcript's own bytes".
 *
 * A ROW is one line; its offset is the byte it starts at. Rows only ever append, so the bytes
 * above a row never change and an offset names the same row for the file's whole life.
 *
 * Bounds, each a documented constant a caller may lower or raise:
 * - the READ CAP: a row starting further than `capBytes` before the file's end (as it stood
 *   when opened) is out of reach, as if the file began there; spec: "one further from the
 *   file's end than the read's cap reaches" answers the empty page.
 * - a line over `maxLineBytes` is skipped whole (its bytes are dropped as they are read, so
 *   memory stays at one line's bound), like a torn one.
 * A torn or partial line (a crash mid-write, the row the CLI is writing now) is yielded as
 * text like any other; the row mapper's JSON parse is what rejects it. The last line without
 * its newline is yielded too: a complete row parses, a half-written one does not.
 */

/** How far before the file's end a read may reach: 1 GiB. A session whose transcript is larger
 * pages back to the row this far from its end, and then answers the empty page. */
export const READ_CAP_BYTES = 1 << 30;
/** One read's size. */
export const CHUNK_BYTES = 512 << 10;
/** A longer line is skipped: 64 MiB (an image or a huge tool output is well under it). */
export const MAX_LINE_BYTES = 64 << 20;

const NL = 10;
const decoder = new TextDecoder();

/** One line of the file: the byte it starts at, and its text without the newline. */
export interface Line {
  offset: number;
  text: string;
}

export interface ReaderOptions {
  capBytes?: number;
  chunkBytes?: number;
  maxLineBytes?: number;
}

/** An open transcript. `open` answers null when there is no file; dispose it to close. */
export class TranscriptFile implements Disposable {
  /** The file's size when opened: what a read from "the end" starts at. */
  readonly size: number;
  /** The lowest offset a row may start at and still be read (`size - capBytes`, at least 0). */
  readonly floor: number;
  readonly #file: Deno.FsFile;
  readonly #chunk: number;
  readonly #maxLine: number;

  private constructor(file: Deno.FsFile, size: number, o: ReaderOptions) {
    this.#file = file;
    this.size = size;
    this.floor = Math.max(0, size - (o.capBytes ?? READ_CAP_BYTES));
    this.#chunk = Math.max(1, o.chunkBytes ?? CHUNK_BYTES);
    this.#maxLine = o.maxLineBytes ?? MAX_LINE_BYTES;
  }

  /** Opens `path` for reading; null when it does not exist. Other failures throw. */
  static async open(path: string, o: ReaderOptions = {}): Promise<TranscriptFile | null> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
    try {
      return new TranscriptFile(file, (await file.stat()).size, o);
    } catch (e) {
      file.close();
      throw e;
    }
  }

  [Symbol.dispose](): void {
    this.#file.close();
  }

  /** Whether a readable row starts at `offset`: inside the read cap, before the end, and at
   * the file's start or just after a newline. */
  async isRowStart(offset: number): Promise<boolean> {
    if (!Number.isSafeInteger(offset) || offset < this.floor || offset >= this.size) return false;
    if (offset === 0) return true;
    const b = new Uint8Array(1);
    return await this.#readAt(offset - 1, b) === 1 && b[0] === NL;
  }

  /** Fills `buf` from `pos` as far as the file goes; answers how many bytes were read. */
  async #readAt(pos: number, buf: Uint8Array): Promise<number> {
    await this.#file.seek(pos, Deno.SeekMode.Start);
    let got = 0;
    while (got < buf.length) {
      const n = await this.#file.read(buf.subarray(got));
      if (n === null) break;
      got += n;
    }
    return got;
  }

  /**
   * The rows starting before `before` (a row start, or `size`), newest first, down to the read
   * cap. Reads `chunkBytes` at a time backwards and holds at most one line beyond the chunk.
   */
  async *backward(before: number = this.size): AsyncGenerator<Line> {
    const low = Math.max(0, this.floor - 1); // the newline ending the row above the floor
    let pos = Math.min(before, this.size);
    let pending: Uint8Array[] = []; // the line's tail being assembled, newest piece first
    let pendingBytes = 0;
    let tooLong = false;
    while (pos > low) {
      const start = Math.max(low, pos - this.#chunk);
      const buf = new Uint8Array(pos - start);
      const got = await this.#readAt(start, buf);
      if (got !== buf.length) throw new Error(`transcript: short read at ${start}`);
      let end = buf.length;
      while (end > 0) {
        const nl = buf.lastIndexOf(NL, end - 1);
        if (nl < 0) break;
        const offset = start + nl + 1;
        if (offset < this.floor) return;
        const bytes = end - nl - 1 + pendingBytes;
        if (bytes > 0 && !tooLong && bytes <= this.#maxLine) {
          yield { offset, text: join([buf.subarray(nl + 1, end), ...pending.reverse()], bytes) };
        }
        pending = [];
        pendingBytes = 0;
        tooLong = false;
        end = nl;
      }
      if (end > 0) {
        pendingBytes += end;
        if (pendingBytes > this.#maxLine) { // drop it as it is read: only its start is needed
          tooLong = true;
          pending = [];
        } else pending.push(buf.subarray(0, end));
      }
      pos = start;
    }
    if (pos === 0 && pendingBytes > 0 && !tooLong && this.floor === 0) {
      yield { offset: 0, text: join(pending.reverse(), pendingBytes) };
    }
  }

  /**
   * The rows starting at or after `from` (a row start), oldest first, until `limitBytes` have
   * been read or the end as it stood when opened. A line cut by the limit is not yielded.
   */
  async *forward(from: number, limitBytes: number): AsyncGenerator<Line> {
    const stop = Math.min(this.size, from + limitBytes);
    let pos = from;
    let carry: Uint8Array[] = [];
    let carryBytes = 0;
    let lineStart = from;
    while (pos < stop) {
      const buf = new Uint8Array(Math.min(this.#chunk, stop - pos));
      const got = await this.#readAt(pos, buf);
      if (got !== buf.length) throw new Error(`transcript: short read at ${pos}`);
      let begin = 0;
      for (let nl = buf.indexOf(NL); nl >= 0; nl = buf.indexOf(NL, begin)) {
        const bytes = nl - begin + carryBytes;
        if (bytes > 0 && bytes <= this.#maxLine) {
          yield { offset: lineStart, text: join([...carry, buf.subarray(begin, nl)], bytes) };
        }
        carry = [];
        carryBytes = 0;
        begin = nl + 1;
        lineStart = pos + begin;
      }
      if (begin < buf.length) {
        carryBytes += buf.length - begin;
        if (carryBytes > this.#maxLine) carry = [];
        else carry.push(buf.subarray(begin));
      }
      pos += buf.length;
    }
  }
}

/** Decodes a line held in one or more pieces, joining them once. */
function join(pieces: Uint8Array[], bytes: number): string {
  if (pieces.length === 1) return decoder.decode(pieces[0]);
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return decoder.decode(out);
}
