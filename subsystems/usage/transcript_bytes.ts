/**
 * Reading a session transcript from its bytes: the first scan's reader. The
 * answer is what `TranscriptParser` (the whole-line parse) gives for the same file, records and
 * skipped count alike; transcript_bytes_test.ts compares the two on real, generated, odd and
 * damaged transcripts.
 *
 * Reads land in a WebAssembly memory the SIMD searches work on (byte_search.ts): newlines and
 * the `"usage"` key are found 32 bytes a step; a line without that key is only checked for
 * the shape of one JSON object (`{` ... `}`), as the whole-line parse checks it; a line with it
 * is walked for the fields a count needs (usage_walk.ts) and parsed whole when the walk cannot
 * read it. Memory is one read's worth plus the longest line, however large the file. Records
 * come out packed (packed.ts), a line repeating the message before it dropped unless
 * `keepRepeats` asks for every line's.
 */
import { BASE, type ByteSearch, byteSearch, SLACK } from "./byte_search.ts";
import { PackedBuilder, type PackedRead, unpack } from "./packed.ts";
import { endsAsBefore, LastBytes } from "./read_end.ts";
import { TranscriptParser, type TranscriptRead } from "./transcript.ts";
import { VALUES } from "./usage_values.ts";
import { F, K, LineFields } from "./usage_walk.ts";

const PAGE = 65536;
/** One read's size: few syscalls, and small enough that the bytes the kernel just copied are
 * still in the core's cache when the searches and the walk read them (cat reads 128 KiB). */
const READ_BYTES = 256 << 10;
const ASSISTANT = new TextEncoder().encode("assistant");
const FAST = new TextEncoder().encode("fast");

/** A reader that keeps its memory from file to file; one per thread or concurrent read. */
export class TranscriptBytes {
  readonly #memory = new WebAssembly.Memory({
    initial: Math.ceil((BASE + READ_BYTES + SLACK) / PAGE),
  });
  readonly #search: ByteSearch = byteSearch(this.#memory);
  #fields = new LineFields(this.#memory.buffer);
  #values = new Float64Array(this.#memory.buffer, VALUES, 16);
  readonly #decoder = new TextDecoder();
  readonly #intern: (s: string) => string;
  readonly #memo: { bytes: Uint8Array; text: string }[] = [];
  #b = new Uint8Array(this.#memory.buffer);
  // The file being read: bytes [BASE, len) are held; the line being read starts at lineStart,
  // the search goes on from scanAt, and usage says whether the line has shown the key yet.
  #parser = new TranscriptParser();
  #out = new PackedBuilder();
  #len = 0;
  #lineStart = 0;
  #scanAt = 0;
  #usage = false;
  #fresh = true;
  // Where the file stands: its bytes fed so far, this read's share of them, and the last few
  // bytes of its lines read (read_end.ts).
  #offset = 0;
  #took = 0;
  readonly #last = new LastBytes();

  readonly #readBytes: number;
  readonly #keepRepeats: boolean;

  /** `readBytes`: the most one read takes (tests make it small to cut lines at every place);
   * `keepRepeats`: keep a record for every line, even one repeating the message before it. */
  constructor(
    intern: (s: string) => string = (s) => s,
    opts: { readBytes?: number; keepRepeats?: boolean } = {},
  ) {
    this.#intern = intern;
    this.#readBytes = Math.max(1, opts.readBytes ?? READ_BYTES);
    this.#keepRepeats = opts.keepRepeats ?? false;
  }

  /** Reads `path` on this thread, blocking it: every record, as objects (the tests' form). */
  readSync(path: string): TranscriptRead {
    return unpack(this.readPackedSync(path), (s) => s);
  }

  /** Reads `path` without blocking the thread: every record, as objects. */
  async read(path: string): Promise<TranscriptRead> {
    return unpack(await this.readPacked(path), (s) => s);
  }

  /** Reads `path` on this thread, blocking it (reader threads use this). */
  readPackedSync(path: string): PackedRead {
    using file = Deno.openSync(path, { read: true });
    this.#begin();
    for (;;) {
      const n = file.readSync(this.#space());
      if (n === null) return this.#finish();
      this.#feed(n);
    }
  }

  /**
   * Reads `path` without blocking the thread. `after`: an earlier read of the same file; when
   * the file still holds the bytes that read ended on, only what follows them is read, and the
   * answer is `after`'s records and the new ones, as a whole read would give them.
   */
  async readPacked(path: string, after?: PackedRead): Promise<PackedRead> {
    using file = await Deno.open(path, { read: true });
    const appended = after?.end ? await endsAsBefore(file, after.end) : false;
    if (appended) this.#begin(after);
    else {
      if (after?.end) await file.seek(0, Deno.SeekMode.Start);
      this.#begin();
    }
    for (;;) {
      const n = await file.read(this.#space());
      if (n === null) return this.#finish();
      this.#feed(n);
    }
  }

  /** A read from the file's start, or on from where `after` ended. */
  #begin(after?: PackedRead): void {
    this.#parser = new TranscriptParser(this.#intern);
    this.#len = this.#lineStart = this.#scanAt = BASE;
    this.#usage = false;
    this.#took = 0;
    this.#last.reset(after?.end);
    if (after?.end) {
      this.#out = PackedBuilder.after(after, this.#keepRepeats);
      this.#parser.cwd = after.end.cwd;
      this.#parser.skipped = after.skipped;
      this.#offset = after.end.offset;
      this.#fresh = false;
      return;
    }
    this.#out = new PackedBuilder(this.#keepRepeats);
    this.#offset = 0;
    this.#fresh = true;
  }

  /** Where the next read lands; the memory grows when one line fills it. */
  #space(): Uint8Array {
    let room = this.#b.length - SLACK;
    if (this.#len >= room) {
      this.#memory.grow(Math.ceil(this.#b.length / PAGE));
      this.#b = new Uint8Array(this.#memory.buffer);
      this.#fields = new LineFields(this.#memory.buffer);
      this.#values = new Float64Array(this.#memory.buffer, VALUES, 16);
      room = this.#b.length - SLACK;
    }
    return this.#b.subarray(this.#len, Math.min(this.#len + this.#readBytes, room));
  }

  #finish(): PackedRead {
    const onLine = this.#len === BASE; // nothing held: the file ended on a newline
    this.#feed(0, true);
    const packed = this.#out.finish(this.#parser.skipped);
    packed.from = this.#offset - this.#took;
    packed.readBytes = this.#took;
    packed.end = onLine && this.#offset > 0
      ? { offset: this.#offset, cwd: this.#parser.cwd, last: this.#last.value() }
      : null;
    this.#parser = new TranscriptParser();
    this.#out = new PackedBuilder();
    return packed;
  }

  /** `added` bytes landed after the held ones: read every line they complete. */
  #feed(added: number, final = false): void {
    this.#len += added;
    this.#offset += added;
    this.#took += added;
    const b = this.#b, end = this.#len;
    if (this.#fresh) {
      if (end < BASE + 3 && !final) return;
      this.#fresh = false;
      // The whole-line parse decodes the file as text, which drops a byte order mark.
      if (end >= BASE + 3 && b[BASE] === 0xef && b[BASE + 1] === 0xbb && b[BASE + 2] === 0xbf) {
        this.#lineStart = BASE + 3;
      }
      this.#scanAt = this.#lineStart;
    }
    let ls = this.#lineStart, at = this.#scanAt, usage = this.#usage;
    for (;;) {
      const q = this.#search.line(at, end);
      if (q < end && b[q] !== 0x0a) {
        // `"u` with `"` six bytes on: the key when the four bytes between spell "sage". Its
        // last byte may not have landed yet; then look again after the next read.
        if (q + 6 >= end && !final) {
          at = q;
          break;
        }
        if (q + 6 < end && b[q + 2] === 0x73 && b[q + 3] === 0x61 && b[q + 4] === 0x67) {
          usage ||= b[q + 5] === 0x65;
        }
        at = q + 1;
        continue;
      }
      if (q >= end) {
        if (final) {
          if (end > ls) this.#line(ls, end, usage);
          ls = end;
        } else at = Math.max(ls, end - 6); // a key cut at the end is looked for again
        break;
      }
      this.#line(ls, q, usage);
      ls = at = q + 1;
      usage = false;
    }
    if (ls > BASE) this.#last.keep(b, BASE, ls);
    // Keep the unfinished line at the front for the next read.
    if (ls > BASE) b.copyWithin(BASE, ls, end);
    this.#len = BASE + end - ls;
    this.#scanAt = BASE + at - ls;
    this.#lineStart = BASE;
    this.#usage = usage;
  }

  #line(start: number, end: number, usage: boolean): void {
    const b = this.#b;
    if (!usage) {
      if (!looksLikeObject(b, start, end)) this.#parser.skipped++;
      return;
    }
    const held = b[end];
    b[end] = 0;
    const walked = this.#search.walk(start, end) === 1;
    b[end] = held;
    if (walked) return this.#take();
    const parser = this.#parser;
    parser.line(this.#decoder.decode(b.subarray(start, end)));
    for (const r of parser.records) this.#out.addRecord(r);
    parser.records.length = 0;
  }

  /** A walked line's record, built as `TranscriptParser` builds it from the parsed value. */
  #take(): void {
    const kind = this.#fields.kind, parser = this.#parser;
    if (kind[F.cwd] === K.string) parser.cwd = this.#memoText(F.cwd);
    if (kind[F.type] !== K.string || !this.#equals(F.type, ASSISTANT)) return;
    if (kind[F.message] !== K.object || kind[F.usage] !== K.object) return;
    const model = kind[F.model] === K.string ? this.#memoText(F.model) : "unknown";
    if (model === "<synthetic>") return;
    if (this.#repeat()) return;
    this.#search.values();
    this.#out.add(
      kind[F.timestamp] === K.string ? this.#time(F.timestamp) : NaN,
      this.#count(F.input),
      this.#count(F.output),
      this.#count(F.cacheCreation),
      this.#count(F.split1h),
      this.#count(F.cacheRead),
      kind[F.speed] === K.string && this.#equals(F.speed, FAST),
      model,
      parser.cwd,
    );
    this.#key();
  }

  /** Whether the line's key is plain ASCII ids (what the CLI writes) naming the message of the
   * record before it: the CLI writes a line per content block, each with the same id and
   * usage, and only the first is kept (packed.ts). */
  #repeat(): boolean {
    const f = this.#fields, b = this.#b, kind = f.kind;
    if (kind[F.requestId] !== K.string || kind[F.id] !== K.string) return false;
    if (f.escaped[F.id] | f.escaped[F.requestId]) return false;
    const is = f.start[F.id], ie = f.end[F.id], rs = f.start[F.requestId], re = f.end[F.requestId];
    let high = 0;
    for (let i = is; i < ie; i++) high |= b[i];
    for (let i = rs; i < re; i++) high |= b[i];
    return high < 0x80 && this.#out.repeatsLast(b, is, ie, rs, re);
  }

  /** The record's key (`${message.id}:${requestId}`) and request id: plain ASCII ids (what the
   * CLI writes) go to the packed key text as bytes, others as the strings `JSON.parse` makes. */
  #key(): void {
    const f = this.#fields, b = this.#b, kind = f.kind;
    if (kind[F.requestId] !== K.string) return this.#out.keyStrings(null, null);
    const rs = f.start[F.requestId], re = f.end[F.requestId];
    if (kind[F.id] !== K.string) return this.#out.keyStrings(null, this.#text(F.requestId));
    const is = f.start[F.id], ie = f.end[F.id];
    let high = f.escaped[F.id] | f.escaped[F.requestId] ? 0x80 : 0;
    for (let i = is; i < ie; i++) high |= b[i];
    for (let i = rs; i < re; i++) high |= b[i];
    if (high < 0x80) return this.#out.keyBytes(b, is, ie, rs, re);
    const requestId = this.#text(F.requestId);
    this.#out.keyStrings(`${this.#text(F.id)}:${requestId}`, requestId);
  }

  /** A string field's value as `JSON.parse` gives it. */
  #text(field: number): string {
    const f = this.#fields, b = this.#b, start = f.start[field], end = f.end[field];
    if (f.escaped[field]) {
      return JSON.parse(`"${this.#decoder.decode(b.subarray(start, end))}"`) as string;
    }
    if (end - start <= 64) {
      let ascii = true;
      for (let i = start; i < end && ascii; i++) ascii = b[i] < 0x80;
      if (ascii) return String.fromCharCode.apply(null, b.subarray(start, end) as never);
    }
    return this.#decoder.decode(b.subarray(start, end));
  }

  /** `#text` for values that repeat line after line (model, cwd): the bytes are compared with
   * the last few seen, and a match answers the string already made. */
  #memoText(field: number): string {
    const f = this.#fields, b = this.#b, start = f.start[field], end = f.end[field];
    // Compared in place: a view per line is an object per line, and the server's small young
    // generation collects that often.
    const memo = this.#memo;
    for (let i = 0; i < memo.length; i++) {
      if (sameBytes(memo[i].bytes, b, start, end)) return memo[i].text;
    }
    const text = this.#intern(this.#text(field));
    if (f.escaped[field]) return text;
    if (memo.length >= 8) memo.shift();
    memo.push({ bytes: b.slice(start, end), text });
    return text;
  }

  #equals(field: number, want: Uint8Array): boolean {
    const f = this.#fields;
    if (f.escaped[field]) return this.#text(field) === new TextDecoder().decode(want);
    return sameBytes(want, this.#b, f.start[field], f.end[field]);
  }

  /** What `count()` of the parsed value gives: a finite number above zero, else 0. Read in
   * WebAssembly (usage_values.ts) unless it is not plain digits. */
  #count(field: number): number {
    const read = this.#values[field];
    if (read >= 0) return read;
    const f = this.#fields;
    const b = this.#b, start = f.start[field], end = f.end[field];
    let v = 0;
    if (end - start <= 15) {
      for (let i = start; i < end; i++) {
        const d = b[i] - 0x30;
        if (d < 0 || d > 9) {
          v = Number(String.fromCharCode.apply(null, b.subarray(start, end) as never));
          break;
        }
        v = v * 10 + d;
      }
    } else v = Number(String.fromCharCode.apply(null, b.subarray(start, end) as never));
    return Number.isFinite(v) && v > 0 ? v : 0;
  }

  /** `Date.parse` of the value: read in WebAssembly for the CLI's own form. */
  #time(field: number): number {
    const read = this.#values[field];
    return read >= 0 ? read : Date.parse(this.#text(field));
  }
}

/** Whether `a` holds the bytes `b[start, end)`. */
function sameBytes(a: Uint8Array, b: Uint8Array, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

/** The whole-line parse's check of a line without usage: blank, or `{` ... `}` (transcript.ts). */
function looksLikeObject(b: Uint8Array, start: number, end: number): boolean {
  while (start < end && isSpace(b[start])) start++;
  while (end > start && isSpace(b[end - 1])) end--;
  return start === end || (b[start] === 0x7b && b[end - 1] === 0x7d);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}
