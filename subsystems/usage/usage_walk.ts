/**
 * Reading one usage-carrying transcript line from its bytes without building it: a validating
 * walk over the JSON, in WebAssembly (byte_search.ts), that notes where the few fields a usage
 * count needs lie - the line's type, cwd, timestamp and requestId; its message's id, model and
 * usage - and skips the rest: the content array with its text, thinking and tool input, most of
 * the bytes. String runs are skipped 32 bytes a step. spec: Subjects > usage.
 *
 * The walk accepts only what `JSON.parse` accepts (every byte is checked against the JSON
 * grammar) and answers 0 for anything it does not read itself - an escaped key in an object it
 * reads, nesting past MAX_DEPTH, any syntax error; the caller then parses that line whole, so
 * the counts are always the whole-line parse's (transcript_bytes_test.ts compares the two). A
 * key given twice keeps its last value, as `JSON.parse` does: a repeated `message` or `usage`
 * starts over. The caller puts a 0x00 byte at `end` (no JSON value holds one raw), so no step
 * needs its own bound check: any read reaching `end` fails there. JSON's own tokens (strings,
 * numbers, whitespace) are json_tokens.ts's; this file is the objects and arrays around them and
 * what is noted of them.
 *
 *   walk(start, end): 1 when bytes [start, end) are one JSON object, its fields noted in the
 *     field table (`LineFields`); 0 when the line must be parsed whole.
 */
import { FAIL, JSON_TOKENS } from "./json_tokens.ts";
import type { WasmFunc } from "./wasm_text.ts";

/** The fields noted, by index into the field table. */
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

/** What a field's last value was. */
export const K = { none: 0, string: 1, number: 2, object: 3, other: 4 } as const;

// The memory below BASE: the field table (kind, byte range inside the value - inside the quotes
// for a string - and whether a string held an escape), then the tables the walk reads.
const KIND = 0, START = 16, END = 80, ESC = 144;
/** The field table's place in memory (usage_values.ts reads it too). */
export const TABLE = { kind: KIND, start: START, end: END, escaped: ESC } as const;
const CLEAR_FROM = 160, CLEAR_TO = 176, CHILD = 192, ROLES = 256, NAMES = 512;
export const BASE = 1024;
const OTHER = 4;
const MAX_DEPTH = 200;

/** The keys read in each object the walk cares about (root, message, usage, cache_creation);
 * the keys of every other object are only checked. */
const ROLE_KEYS: [string, number][][] = [
  [["type", F.type], ["message", F.message], ["requestId", F.requestId]],
  [["id", F.id], ["model", F.model], ["usage", F.usage]],
  [
    ["input_tokens", F.input],
    ["output_tokens", F.output],
    ["cache_creation_input_tokens", F.cacheCreation],
    ["cache_read_input_tokens", F.cacheRead],
    ["speed", F.speed],
    ["cache_creation", F.split],
  ],
  [["ephemeral_1h_input_tokens", F.split1h]],
];
ROLE_KEYS[0].push(["timestamp", F.timestamp], ["cwd", F.cwd]);

/** The field table as views of the memory (made again when the memory grows). */
export class LineFields {
  readonly kind: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly escaped: Uint8Array;
  constructor(buffer: ArrayBufferLike) {
    this.kind = new Uint8Array(buffer, KIND, 16);
    this.start = new Int32Array(buffer, START, 16);
    this.end = new Int32Array(buffer, END, 16);
    this.escaped = new Uint8Array(buffer, ESC, 16);
  }
}

/** Writes the tables the walk reads: which fields a new value clears (a repeated `message`
 * clears what the last one noted), the role of each field's object, the keys of each role. */
export function writeTables(b: Uint8Array): void {
  const clears: [number, number, number][] = [
    [F.message, F.id, F.split1h + 1],
    [F.usage, F.input, F.split1h + 1],
    [F.split, F.split1h, F.split1h + 1],
  ];
  for (const [field, from, to] of clears) [b[CLEAR_FROM + field], b[CLEAR_TO + field]] = [from, to];
  b.fill(OTHER, CHILD, CHILD + 16);
  [b[CHILD + F.message], b[CHILD + F.usage], b[CHILD + F.split]] = [1, 2, 3];
  let names = NAMES;
  ROLE_KEYS.forEach((keys, role) => {
    const at = ROLES + role * 64;
    b[at] = keys.length;
    keys.forEach(([name, field], i) => {
      const e = at + 1 + i * 4;
      [b[e], b[e + 1], b[e + 2], b[e + 3]] = [name.length, field, names & 0xff, names >> 8];
      b.set(new TextEncoder().encode(name), names);
      names += name.length;
    });
  });
}

const fn = (name: string, params: string[], locals: string[], body: string): WasmFunc => ({
  name,
  params,
  locals,
  result: name !== "note",
  body,
  exported: name === "walk",
});
const DEPTH_IN = `global.get $depth i32.const 1 i32.add global.set $depth
  global.get $depth i32.const ${MAX_DEPTH} i32.gt_u if ${FAIL} end`;
const DEPTH_OUT = "global.get $depth i32.const 1 i32.sub global.set $depth";
/** p = the first non-space byte from p; the call only when the byte could be a space (<= 32):
 * JSON as the CLI writes it has none, and a call per token cost more than the test. */
const SKIP_WS = `local.get $p i32.load8_u 0 i32.const 33 i32.lt_u
  if local.get $p call $ws local.set $p end`;

/** After a member or an element: a comma goes round the loop again, `close` (`}` 125, `]` 93)
 * ends the container and answers the position after it, anything else fails. */
const NEXT_OR_CLOSE = (close: number) =>
  `${SKIP_WS}
      local.get $p i32.load8_u 0 local.tee $c i32.const 44 i32.eq
      if local.get $p i32.const 1 i32.add local.set $p ${SKIP_WS} br 1 end
      local.get $c i32.const ${close} i32.ne if ${FAIL} end
      ${DEPTH_OUT}
      local.get $p i32.const 1 i32.add return`;

export const WALK_GLOBALS = ["lim", "esc", "depth"];

/** The walk's functions: each takes the position of what it reads and answers the position
 * after it, or -1 when the bytes are not what JSON allows there. */
export const WALK: WasmFunc[] = [
  ...JSON_TOKENS,
  // The field a key of an object of `role` names, or -1.
  fn(
    "keyof",
    ["role", "ks", "ke"],
    ["n", "t", "i", "e", "j", "off"],
    `
    local.get $ke local.get $ks i32.sub local.set $n
    local.get $role i32.const 64 i32.mul i32.const ${ROLES} i32.add local.set $t
    block
      loop
        local.get $i local.get $t i32.load8_u 0 i32.ge_u br_if 1
        local.get $t i32.const 1 i32.add local.get $i i32.const 4 i32.mul i32.add local.tee $e
        i32.load8_u 0 local.get $n i32.eq
        if
          local.get $e i32.load16_u 2 local.set $off
          i32.const 0 local.set $j
          block
            loop
              local.get $j local.get $n i32.ge_u if local.get $e i32.load8_u 1 return end
              local.get $ks local.get $j i32.add i32.load8_u 0
              local.get $off local.get $j i32.add i32.load8_u 0 i32.ne br_if 1
              local.get $j i32.const 1 i32.add local.set $j
              br 0
            end
          end
        end
        local.get $i i32.const 1 i32.add local.set $i
        br 0
      end
    end
    i32.const -1`,
  ),
  fn(
    "note",
    ["field", "kind", "s", "e"],
    ["i", "to"],
    `
    local.get $field i32.load8_u ${CLEAR_FROM} local.set $i
    local.get $field i32.load8_u ${CLEAR_TO} local.set $to
    block
      loop
        local.get $i local.get $to i32.ge_u br_if 1
        local.get $i i32.const 0 i32.store8 ${KIND}
        local.get $i i32.const 1 i32.add local.set $i
        br 0
      end
    end
    local.get $field local.get $kind i32.store8 ${KIND}
    local.get $field i32.const 4 i32.mul local.get $s i32.store ${START}
    local.get $field i32.const 4 i32.mul local.get $e i32.store ${END}
    local.get $field global.get $esc i32.store8 ${ESC}`,
  ),
  fn(
    "val",
    ["p", "field"],
    ["c", "q"],
    `
    local.get $p i32.load8_u 0 local.set $c
    local.get $c i32.const 34 i32.eq
    if
      local.get $p call $str local.tee $q i32.const 0 i32.lt_s if ${FAIL} end
      local.get $field i32.const 0 i32.ge_s
      if
        local.get $field i32.const ${K.string}
        local.get $p i32.const 1 i32.add local.get $q i32.const 1 i32.sub call $note
      end
      local.get $q return
    end
    local.get $c i32.const 123 i32.eq
    if
      local.get $field i32.const 0 i32.lt_s if local.get $p i32.const ${OTHER} call $obj return end
      local.get $field i32.const ${K.object} local.get $p local.get $p call $note
      local.get $p local.get $field i32.load8_u ${CHILD} call $obj return
    end
    local.get $c i32.const 91 i32.eq
    if
      local.get $field i32.const 0 i32.ge_s
      if local.get $field i32.const ${K.other} local.get $p local.get $p call $note end
      local.get $p call $arr return
    end
    local.get $c i32.const 45 i32.eq local.get $c call $digit i32.or
    if
      local.get $p call $num local.tee $q i32.const 0 i32.lt_s if ${FAIL} end
      local.get $field i32.const 0 i32.ge_s
      if local.get $field i32.const ${K.number} local.get $p local.get $q call $note end
      local.get $q return
    end
    i32.const -1 local.set $q ;; true, false, null: four bytes compared at once
    local.get $c i32.const 116 i32.eq local.get $p i32.load 0 i32.const 0x65757274 i32.eq i32.and
    if local.get $p i32.const 4 i32.add local.set $q end
    local.get $c i32.const 102 i32.eq local.get $p i32.load 1 i32.const 0x65736c61 i32.eq i32.and
    if local.get $p i32.const 5 i32.add local.set $q end
    local.get $c i32.const 110 i32.eq local.get $p i32.load 0 i32.const 0x6c6c756e i32.eq i32.and
    if local.get $p i32.const 4 i32.add local.set $q end
    local.get $q i32.const 0 i32.lt_s if ${FAIL} end
    local.get $field i32.const 0 i32.ge_s
    if local.get $field i32.const ${K.other} local.get $p local.get $q call $note end
    local.get $q`,
  ),
  fn(
    "obj",
    ["p", "role"],
    ["q", "field", "c"],
    `
    ${DEPTH_IN}
    local.get $p i32.const 1 i32.add local.set $p ${SKIP_WS}
    local.get $p i32.load8_u 0 i32.const 125 i32.eq
    if ${DEPTH_OUT} local.get $p i32.const 1 i32.add return end
    loop
      local.get $p i32.load8_u 0 i32.const 34 i32.ne if ${FAIL} end
      local.get $p call $str local.tee $q i32.const 0 i32.lt_s if ${FAIL} end
      i32.const -1 local.set $field
      local.get $role i32.const ${OTHER} i32.ne
      if
        global.get $esc if ${FAIL} end ;; an escaped key where keys are read: parse it whole
        local.get $role local.get $p i32.const 1 i32.add local.get $q i32.const 1 i32.sub
        call $keyof local.set $field
      end
      local.get $q local.set $p ${SKIP_WS}
      local.get $p i32.load8_u 0 i32.const 58 i32.ne if ${FAIL} end
      local.get $p i32.const 1 i32.add local.set $p ${SKIP_WS}
      local.get $p local.get $field call $val local.tee $p i32.const 0 i32.lt_s if ${FAIL} end
      ${NEXT_OR_CLOSE(125)}
    end
    i32.const -1`,
  ),
  fn(
    "arr",
    ["p"],
    ["c"],
    `
    ${DEPTH_IN}
    local.get $p i32.const 1 i32.add local.set $p ${SKIP_WS}
    local.get $p i32.load8_u 0 i32.const 93 i32.eq
    if ${DEPTH_OUT} local.get $p i32.const 1 i32.add return end
    loop
      local.get $p i32.const -1 call $val local.tee $p i32.const 0 i32.lt_s if ${FAIL} end
      ${NEXT_OR_CLOSE(93)}
    end
    i32.const -1`,
  ),
  fn(
    "walk",
    ["start", "end"],
    ["p"],
    `
    local.get $end global.set $lim
    i32.const 0 global.set $depth
    i32.const 0 i64.const 0 i64.store ${KIND}
    i32.const 0 i64.const 0 i64.store ${KIND + 8}
    local.get $start call $ws local.tee $p i32.load8_u 0 i32.const 123 i32.ne
    if i32.const 0 return end
    local.get $p i32.const 0 call $obj local.tee $p i32.const 0 i32.lt_s
    if i32.const 0 return end
    local.get $p call $ws local.get $end i32.eq`,
  ),
];
