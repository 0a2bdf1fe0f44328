/**
 * Reading one usage-carrying transcript line from its bytes, without building it: a validating
 * walk over the JSON that notes where the few fields a usage count needs lie (the line's type,
 * cwd, timestamp and requestId; its message's id, model and usage) and skips the rest - the
 * content array with its text, thinking and tool input, which is most of the bytes. Long string
 * runs are skipped 16 bytes at a time (byte_search.ts). spec: Subjects > usage; issue 14 item 5.
 *
 * The walk accepts only what `JSON.parse` accepts (every byte is checked against the JSON
 * grammar) and answers false for anything it does not read itself - an escaped key in an object
 * it reads, nesting past MAX_DEPTH, any syntax error; the caller then parses that line whole, so
 * the counts are always the whole-line parse's (usage_line_test.ts compares the two). A key given
 * twice keeps its last value, as `JSON.parse` does: a repeated `message` or `usage` starts over.
 *
 * The caller puts a 0x00 byte at `end` for the walk (no JSON value may hold one raw), so no step
 * needs its own bound check: any read reaching `end` fails there.
 */
import type { ByteSearch } from "./byte_search.ts";

/** The fields read, by index into `LineFields`. */
export const F = {
  type: 0,
  message: 1,
  requestId: 2,
  timestamp: 3,
  cwd: 4,
  id: 5,
  model: 6,
  usage: 7,
  input: 8,
  output: 9,
  cacheCreation: 10,
  cacheRead: 11,
  speed: 12,
  split: 13,
  split1h: 14,
} as const;
const COUNT = 15;

/** What a field's last value was. */
export const K = { none: 0, string: 1, number: 2, object: 3, other: 4 } as const;

/** Where each field's value lies in the line: kind, byte range, and for a string whether it
 * holds an escape (the range is inside the quotes). Reused from line to line. */
export class LineFields {
  readonly kind = new Uint8Array(COUNT);
  readonly start = new Int32Array(COUNT);
  readonly end = new Int32Array(COUNT);
  readonly escaped = new Uint8Array(COUNT);
}

const enc = (s: string) => new TextEncoder().encode(s);
/** The keys read in each object the walk cares about, found by length and first letter (no
 * two of a role share both); other objects' keys are only checked. */
interface RoleKeys {
  names: [Uint8Array, number][];
  slot: Int8Array;
}
const MAX_KEY = 31;
const slotOf = (length: number, first: number) => (length << 7) | (first & 0x7f);
const role = (names: [string, number][]): RoleKeys => {
  const slot = new Int8Array(slotOf(MAX_KEY + 1, 0)).fill(-1);
  names.forEach(([name], i) => slot[slotOf(name.length, name.charCodeAt(0))] = i);
  return { names: names.map(([name, field]) => [enc(name), field]), slot };
};
const ROLE_KEYS: RoleKeys[] = [
  role([
    ["type", F.type],
    ["message", F.message],
    ["requestId", F.requestId],
    ["timestamp", F.timestamp],
    ["cwd", F.cwd],
  ]),
  role([["id", F.id], ["model", F.model], ["usage", F.usage]]),
  role([
    ["input_tokens", F.input],
    ["output_tokens", F.output],
    ["cache_creation_input_tokens", F.cacheCreation],
    ["cache_read_input_tokens", F.cacheRead],
    ["speed", F.speed],
    ["cache_creation", F.split],
  ]),
  role([["ephemeral_1h_input_tokens", F.split1h]]),
];
const ROOT = 0, OTHER = 4;
/** The role of an object value of a field, and the fields a new value of it clears. */
const CHILD_ROLE = new Int8Array(COUNT).fill(OTHER);
CHILD_ROLE[F.message] = 1;
CHILD_ROLE[F.usage] = 2;
CHILD_ROLE[F.split] = 3;
const CLEARS: [number, number][] = [];
CLEARS[F.message] = [F.id, COUNT];
CLEARS[F.usage] = [F.input, COUNT];
CLEARS[F.split] = [F.split1h, COUNT];

/** Deeper lines are parsed whole (the walk recurses once per level). */
const MAX_DEPTH = 200;
/** Bytes of a string tested here before the SIMD search takes over: keys and ids are short. */
const INLINE_RUN = 24;

let b: Uint8Array;
let p = 0;
let lim = 0;
let search: ByteSearch;
let out: LineFields;
let depth = 0;
let escaped = 0;

/**
 * Walks the line in `bytes[start, end)` (with `bytes[end] === 0`). true: it is one JSON object
 * and `fields` holds its fields; false: parse it whole to know what it is.
 */
export function walkUsageLine(
  bytes: Uint8Array,
  start: number,
  end: number,
  bs: ByteSearch,
  fields: LineFields,
): boolean {
  b = bytes;
  p = start;
  lim = end;
  search = bs;
  out = fields;
  depth = 0;
  fields.kind.fill(0);
  skipSpace();
  if (b[p] !== 0x7b || !object(ROOT)) return false;
  skipSpace();
  return p === end;
}

function skipSpace(): void {
  const buf = b;
  let i = p;
  let c = buf[i];
  while (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) c = buf[++i];
  p = i;
}

function object(role: number): boolean {
  if (++depth > MAX_DEPTH) return false;
  p++;
  skipSpace();
  if (b[p] === 0x7d) {
    p++;
    depth--;
    return true;
  }
  const keys = role === OTHER ? null : ROLE_KEYS[role];
  for (;;) {
    if (b[p] !== 0x22) return false;
    const keyStart = p + 1;
    if (!string()) return false;
    let field = -1;
    if (keys !== null) {
      if (escaped) return false;
      field = keyOf(keys, keyStart, p - 1);
    }
    skipSpace();
    if (b[p] !== 0x3a) return false;
    p++;
    skipSpace();
    if (!value(field)) return false;
    skipSpace();
    const c = b[p];
    if (c === 0x2c) {
      p++;
      skipSpace();
    } else if (c === 0x7d) {
      p++;
      depth--;
      return true;
    } else return false;
  }
}

function keyOf(keys: RoleKeys, start: number, end: number): number {
  const n = end - start;
  if (n > MAX_KEY || n === 0) return -1;
  const i = keys.slot[slotOf(n, b[start])];
  if (i < 0) return -1;
  const [name, field] = keys.names[i];
  for (let k = 0; k < n; k++) if (b[start + k] !== name[k]) return -1;
  return field;
}

function array(): boolean {
  if (++depth > MAX_DEPTH) return false;
  p++;
  skipSpace();
  if (b[p] === 0x5d) {
    p++;
    depth--;
    return true;
  }
  for (;;) {
    if (!value(-1)) return false;
    skipSpace();
    const c = b[p];
    if (c === 0x2c) {
      p++;
      skipSpace();
    } else if (c === 0x5d) {
      p++;
      depth--;
      return true;
    } else return false;
  }
}

function note(field: number, kind: number, start: number, end: number): void {
  const clears = CLEARS[field];
  if (clears) out.kind.fill(0, clears[0], clears[1]);
  out.kind[field] = kind;
  out.start[field] = start;
  out.end[field] = end;
  out.escaped[field] = escaped;
}

function value(field: number): boolean {
  const c = b[p];
  const start = p;
  if (c === 0x22) {
    if (!string()) return false;
    if (field >= 0) note(field, K.string, start + 1, p - 1);
    return true;
  }
  if (c === 0x7b) {
    if (field < 0) return object(OTHER);
    note(field, K.object, start, start);
    return object(CHILD_ROLE[field]);
  }
  if (c === 0x5b) {
    if (field >= 0) note(field, K.other, start, start);
    return array();
  }
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    if (!number()) return false;
    if (field >= 0) note(field, K.number, start, p);
    return true;
  }
  if (!(c === 0x74 ? word(TRUE) : c === 0x66 ? word(FALSE) : c === 0x6e && word(NULL))) {
    return false;
  }
  if (field >= 0) note(field, K.other, start, p);
  return true;
}

const TRUE = enc("true"), FALSE = enc("false"), NULL = enc("null");
function word(w: Uint8Array): boolean {
  for (let i = 0; i < w.length; i++) if (b[p + i] !== w[i]) return false;
  p += w.length;
  return true;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function number(): boolean {
  if (b[p] === 0x2d) p++;
  const c = b[p];
  if (c === 0x30) p++;
  else if (c >= 0x31 && c <= 0x39) { while (isDigit(b[++p])); }
  else return false;
  if (b[p] === 0x2e) {
    if (!isDigit(b[++p])) return false;
    while (isDigit(b[++p]));
  }
  const e = b[p];
  if (e === 0x65 || e === 0x45) {
    const s = b[++p];
    if (s === 0x2b || s === 0x2d) p++;
    if (!isDigit(b[p])) return false;
    while (isDigit(b[++p]));
  }
  return true;
}

const isHex = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** The bytes that end a plain run inside a string: `"`, `\\` and the control bytes. */
const STOPS = new Uint8Array(256);
STOPS.fill(1, 0, 0x20);
STOPS[0x22] = STOPS[0x5c] = 1;

/** A string from its opening quote; `escaped` says whether it held a backslash. The loops work
 * on locals: module state lives in a context V8 would write back on every step. */
function string(): boolean {
  const buf = b;
  let i = p + 1;
  escaped = 0;
  for (;;) {
    let c = 0;
    let run = INLINE_RUN;
    while (run-- > 0) {
      c = buf[i];
      if (STOPS[c]) break;
      i++;
    }
    if (run < 0) {
      i = search.special(i, lim);
      c = buf[i];
    }
    if (c === 0x22) {
      p = i + 1;
      return true;
    }
    if (c !== 0x5c) return false; // a control byte: JSON strings hold none raw
    escaped = 1;
    const e = buf[i + 1];
    if (
      e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e ||
      e === 0x72 || e === 0x74
    ) i += 2;
    else if (
      e === 0x75 && isHex(buf[i + 2]) && isHex(buf[i + 3]) && isHex(buf[i + 4]) &&
      isHex(buf[i + 5])
    ) i += 6;
    else return false;
  }
}
