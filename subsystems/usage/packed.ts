/**
 * One file's records as the byte reader builds them and a reader thread sends them: the numbers
 * in one Float64Array (moved, not copied), every plain id pair in one string (`msg_..:req_..`
 * after each other, sliced out on arrival), model and cwd as indexes into the file's few
 * distinct values. Cloning an object per record cost more than reading it (~3 us a
 * record to serialize and deserialize, against well under 1 us to read it from the bytes).
 *
 * A line repeating the message of the record before it is not kept: the CLI writes one line per
 * content block, each with the same id and usage, and the report counts a message once, at its
 * first line in path order, so a later line of the same message in the same file never counts.
 * (The report's own check catches repeats that are not next to each other.)
 */
import type { ReadEnd } from "./read_end.ts";
import type { TranscriptRead, UsageRecord } from "./transcript.ts";

// The columns of one record (KEY_LENGTH -1: the key is in `odd`; HASH -1: no key).
export const AT = 0, INPUT = 1, OUTPUT = 2, CC = 3, CC1H = 4, CR = 5, FAST = 6, MODEL = 7;
export const CWD = 8, KEY_AT = 9, KEY_LENGTH = 10, REQUEST_LENGTH = 11, HASH = 12;
export const COLS = 13;

/** A key's hash as the report's repeat check uses it: 30-bit FNV-1a over the key's UTF-16 code
 * units (its bytes, for a plain ASCII key), so it stays a small integer. */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

export interface PackedRead {
  count: number;
  nums: Float64Array<ArrayBuffer>;
  /** The keys of records whose ids are plain ASCII, one after another. */
  keyText: string;
  /** The rest, by record: [record, key, requestId] (KEY_LENGTH is -1 for these). */
  odd: [number, string | null, string | null][];
  models: string[];
  cwds: string[];
  skipped: number;
  /** Where the read ended, when the file ended on a whole line: what a rescan of the file once
   * the CLI has appended to it reads on from. Absent or null: read it whole. */
  end?: ReadEnd | null;
  /** Where in the file this read began: 0, or where the read it went on from ended. */
  from?: number;
  /** The file's bytes this read took: all of them, or what was appended since `end`. */
  readBytes?: number;
}

/** Builds a PackedRead record by record; `keepRepeats` keeps every line's record (the tests
 * compare them with the whole-line parse's one by one). */
export class PackedBuilder {
  constructor(readonly keepRepeats = false) {}

  /** A builder holding `read`'s records, for the records of what its file gained since: a
   * repeat of its last message is still caught, and model and cwd indexes stay as they were. */
  static after(read: PackedRead, keepRepeats = false): PackedBuilder {
    const b = new PackedBuilder(keepRepeats);
    b.#nums = new Float64Array(Math.max(b.#nums.length, read.nums.length * 2));
    b.#nums.set(read.nums);
    b.#count = read.count;
    // Plain ASCII keys only (KEY_AT counts bytes): encoded, they are the bytes they were read from.
    const text = new TextEncoder().encode(read.keyText);
    b.#text = new Uint8Array(Math.max(b.#text.length, text.length * 2));
    b.#text.set(text);
    b.#textLength = text.length;
    b.#odd = read.odd.slice();
    read.models.forEach((m, i) => b.#models.set(m, i));
    read.cwds.forEach((c, i) => b.#cwds.set(c, i));
    return b;
  }

  #nums = new Float64Array(COLS * 256);
  #count = 0;
  #text = new Uint8Array(1 << 14);
  #textLength = 0;
  #odd: PackedRead["odd"] = [];
  #models = new Map<string, number>();
  #cwds = new Map<string, number>();

  /** A record's numbers; its key follows with `keyBytes` or `keyStrings`. */
  add(
    at: number,
    input: number,
    output: number,
    cacheCreation: number,
    cacheCreation1h: number,
    cacheRead: number,
    fast: boolean,
    model: string,
    cwd: string,
  ): void {
    if ((this.#count + 1) * COLS > this.#nums.length) {
      const more = new Float64Array(this.#nums.length * 2);
      more.set(this.#nums);
      this.#nums = more;
    }
    const n = this.#nums, o = this.#count++ * COLS;
    n[o + AT] = at;
    n[o + INPUT] = input;
    n[o + OUTPUT] = output;
    n[o + CC] = cacheCreation;
    n[o + CC1H] = cacheCreation1h;
    n[o + CR] = cacheRead;
    n[o + FAST] = fast ? 1 : 0;
    n[o + MODEL] = indexOf(this.#models, model);
    n[o + CWD] = indexOf(this.#cwds, cwd);
  }

  /** The last record's key from plain ASCII bytes: `b[is, ie)` ":" `b[rs, re)`. */
  keyBytes(b: Uint8Array, is: number, ie: number, rs: number, re: number): void {
    const length = ie - is + 1 + re - rs;
    if (this.#textLength + length > this.#text.length) {
      const more = new Uint8Array(Math.max(this.#text.length * 2, this.#textLength + length));
      more.set(this.#text.subarray(0, this.#textLength));
      this.#text = more;
    }
    const n = this.#nums, o = (this.#count - 1) * COLS, t = this.#text, start = this.#textLength;
    let at = start, h = 0x811c9dc5;
    for (let i = is; i < ie; i++) h = Math.imul(h ^ (t[at++] = b[i]), 0x01000193);
    h = Math.imul(h ^ (t[at++] = 0x3a), 0x01000193);
    for (let i = rs; i < re; i++) h = Math.imul(h ^ (t[at++] = b[i]), 0x01000193);
    if (this.#repeats(null, start, length)) return void this.#count--;
    n[o + KEY_AT] = start;
    n[o + KEY_LENGTH] = length;
    n[o + REQUEST_LENGTH] = re - rs;
    n[o + HASH] = h & 0x3fffffff;
    this.#textLength = at;
  }

  /** Whether the plain ASCII key `b[is, ie)` ":" `b[rs, re)` is the last record's: a later line
   * of the same message, which is not kept. Asked before the line's record is built, so a
   * repeat costs no numbers read and no key copied. */
  repeatsLast(b: Uint8Array, is: number, ie: number, rs: number, re: number): boolean {
    if (this.keepRepeats || this.#count < 1) return false;
    const n = this.#nums, o = (this.#count - 1) * COLS, t = this.#text;
    if (n[o + KEY_LENGTH] !== ie - is + 1 + re - rs) return false; // -1: not a plain key
    let at = n[o + KEY_AT];
    for (let i = is; i < ie; i++) if (t[at++] !== b[i]) return false;
    if (t[at++] !== 0x3a) return false;
    for (let i = rs; i < re; i++) if (t[at++] !== b[i]) return false;
    return true;
  }

  /** The last record's key and request id as strings (escaped or non-ASCII ids, or none). */
  keyStrings(key: string | null, requestId: string | null): void {
    if (key !== null && this.#repeats(key, 0, key.length)) return void this.#count--;
    const o = (this.#count - 1) * COLS;
    this.#nums[o + KEY_LENGTH] = -1;
    this.#nums[o + HASH] = key === null ? -1 : keyHash(key);
    this.#odd.push([this.#count - 1, key, requestId]);
  }

  /** Whether the last record's key - `key`, or the key text's bytes from `start` - is the one
   * of the record before it (a later line of the same message: not kept). */
  #repeats(key: string | null, start: number, length: number): boolean {
    if (this.keepRepeats || this.#count < 2) return false;
    const o = (this.#count - 2) * COLS, t = this.#text;
    const at = (i: number) => (key === null ? t[start + i] : key.charCodeAt(i));
    if (this.#nums[o + KEY_LENGTH] >= 0) {
      if (this.#nums[o + KEY_LENGTH] !== length) return false;
      const prev = this.#nums[o + KEY_AT];
      for (let i = 0; i < length; i++) if (t[prev + i] !== at(i)) return false;
      return true;
    }
    const last = this.#odd.at(-1);
    const prev = last?.[0] === this.#count - 2 ? last[1] : null;
    if (prev === null || prev.length !== length) return false;
    for (let i = 0; i < length; i++) if (prev.charCodeAt(i) !== at(i)) return false;
    return true;
  }

  /** A record the whole-line parse made. */
  addRecord(r: UsageRecord): void {
    this.add(
      r.at,
      r.input,
      r.output,
      r.cache_creation,
      r.cache_creation_1h,
      r.cache_read,
      r.fast,
      r.model,
      r.cwd,
    );
    this.keyStrings(r.key, r.requestId);
  }

  finish(skipped: number): PackedRead {
    return {
      count: this.#count,
      nums: this.#nums.slice(0, this.#count * COLS),
      keyText: new TextDecoder().decode(this.#text.subarray(0, this.#textLength)),
      odd: this.#odd,
      models: [...this.#models.keys()],
      cwds: [...this.#cwds.keys()],
      skipped,
    };
  }
}

function indexOf(m: Map<string, number>, s: string): number {
  let i = m.get(s);
  if (i === undefined) m.set(s, i = m.size);
  return i;
}

/** Each record's key and request id, in order. */
export function keys(p: PackedRead): { keys: (string | null)[]; requestIds: (string | null)[] } {
  const keys: (string | null)[] = new Array(p.count);
  const requestIds: (string | null)[] = new Array(p.count);
  const n = p.nums, text = p.keyText;
  for (let i = 0; i < p.count; i++) {
    const o = i * COLS, length = n[o + KEY_LENGTH];
    if (length < 0) continue;
    const key = text.slice(n[o + KEY_AT], n[o + KEY_AT] + length);
    keys[i] = key;
    requestIds[i] = key.slice(length - n[o + REQUEST_LENGTH]);
  }
  for (const [i, key, requestId] of p.odd) [keys[i], requestIds[i]] = [key, requestId];
  return { keys, requestIds };
}

export function unpack(p: PackedRead, intern: (s: string) => string): TranscriptRead {
  const models = p.models.map(intern), cwds = p.cwds.map(intern), n = p.nums;
  const { keys: k, requestIds } = keys(p);
  const records: UsageRecord[] = new Array(p.count);
  for (let i = 0; i < p.count; i++) {
    const o = i * COLS;
    records[i] = {
      key: k[i],
      at: n[o + AT],
      model: models[n[o + MODEL] | 0],
      cwd: cwds[n[o + CWD] | 0],
      requestId: requestIds[i],
      input: n[o + INPUT],
      output: n[o + OUTPUT],
      cache_creation: n[o + CC],
      cache_creation_1h: n[o + CC1H],
      cache_read: n[o + CR],
      fast: n[o + FAST] === 1,
    };
  }
  return { records, skipped: p.skipped };
}

/** A read's records packed (tests and the whole-line parse's answers take this form). */
export function packRead(read: TranscriptRead, keepRepeats = false): PackedRead {
  const out = new PackedBuilder(keepRepeats);
  for (const r of read.records) out.addRecord(r);
  return out.finish(read.skipped);
}

/** A packed read's records as objects (tests; the report reads the columns). */
export function recordsOf(p: PackedRead): UsageRecord[] {
  return unpack(p, (s) => s).records;
}
