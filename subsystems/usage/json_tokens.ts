/**
 * JSON's tokens in WebAssembly, for the usage walk (usage_walk.ts): whitespace, a string (its
 * escapes checked), a number (JSON's grammar, not the looser one `Number()` takes). Each function
 * takes the position of what it reads and answers the position after it, or -1 when the bytes are
 * not what JSON allows there. They know nothing of which fields a usage count needs; the walk
 * that does calls them. `str` sets the global `$esc` when the string held an escape and calls
 * byte_search.ts's `$special` to cross a long run of plain bytes.
 */
import type { WasmFunc } from "./wasm_text.ts";

/** What a step answers when the bytes are not JSON: the walk gives the line up. */
export const FAIL = "i32.const -1 return";

const token = (name: string, params: string[], locals: string[], body: string): WasmFunc => ({
  name,
  params,
  locals,
  result: true,
  body,
  exported: false,
});

/** digit, hex, ws, digits, str and num. */
export const JSON_TOKENS: WasmFunc[] = [
  token("digit", ["c"], [], "local.get $c i32.const 48 i32.sub i32.const 10 i32.lt_u"),
  token(
    "hex",
    ["c"],
    [],
    `local.get $c i32.const 48 i32.sub i32.const 10 i32.lt_u
     local.get $c i32.const 32 i32.or i32.const 97 i32.sub i32.const 6 i32.lt_u i32.or`,
  ),
  token(
    "ws",
    ["p"],
    ["c"],
    `
    loop
      local.get $p i32.load8_u 0 local.set $c
      local.get $c i32.const 32 i32.eq local.get $c i32.const 9 i32.eq i32.or
      local.get $c i32.const 13 i32.eq i32.or local.get $c i32.const 10 i32.eq i32.or
      if local.get $p i32.const 1 i32.add local.set $p br 1 end
    end
    local.get $p`,
  ),
  token(
    "digits",
    ["p"],
    [],
    `
    loop
      local.get $p i32.load8_u 0 call $digit
      if local.get $p i32.const 1 i32.add local.set $p br 1 end
    end
    local.get $p`,
  ),
  // From the opening quote; $esc says whether the string held an escape.
  token(
    "str",
    ["p"],
    ["c", "e", "m"],
    `
    i32.const 0 global.set $esc
    local.get $p i32.const 1 i32.add local.set $p
    loop
      ;; The next 16 bytes looked at here, the search called only past them: most keys and
      ;; values end within 16 bytes, and the call cost more than the look. The 0x00 at the
      ;; line's end is a hit, so a run of 16 plain bytes still ends at or before it.
      local.get $p v128.load 0 i32.const 34 i8x16.splat i8x16.eq
      local.get $p v128.load 0 i32.const 92 i8x16.splat i8x16.eq v128.or
      local.get $p v128.load 0 i32.const 32 i8x16.splat i8x16.lt_u v128.or
      i8x16.bitmask local.tee $m
      if
        local.get $p local.get $m i32.ctz i32.add local.set $p
      else
        local.get $p i32.const 16 i32.add global.get $lim call $special local.set $p
      end
      local.get $p i32.load8_u 0 local.tee $c i32.const 34 i32.eq
      if local.get $p i32.const 1 i32.add return end
      local.get $c i32.const 92 i32.ne if ${FAIL} end ;; a control byte: never raw in JSON
      i32.const 1 global.set $esc
      local.get $p i32.load8_u 1 local.set $e ;; one-byte escapes: " \\ / b f n r t
      local.get $e i32.const 34 i32.eq local.get $e i32.const 92 i32.eq i32.or
      local.get $e i32.const 47 i32.eq i32.or local.get $e i32.const 98 i32.eq i32.or
      local.get $e i32.const 102 i32.eq i32.or local.get $e i32.const 110 i32.eq i32.or
      local.get $e i32.const 114 i32.eq i32.or local.get $e i32.const 116 i32.eq i32.or
      if local.get $p i32.const 2 i32.add local.set $p br 1 end
      local.get $e i32.const 117 i32.ne if ${FAIL} end ;; \\u and four hex digits
      local.get $p i32.load8_u 2 call $hex local.get $p i32.load8_u 3 call $hex i32.and
      local.get $p i32.load8_u 4 call $hex i32.and local.get $p i32.load8_u 5 call $hex i32.and
      i32.eqz if ${FAIL} end
      local.get $p i32.const 6 i32.add local.set $p
      br 0
    end
    i32.const -1`,
  ),
  // JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  token(
    "num",
    ["p"],
    ["c"],
    `
    local.get $p i32.load8_u 0 i32.const 45 i32.eq
    if local.get $p i32.const 1 i32.add local.set $p end
    local.get $p i32.load8_u 0 local.tee $c i32.const 48 i32.eq
    if
      local.get $p i32.const 1 i32.add local.set $p
    else
      local.get $c i32.const 49 i32.sub i32.const 9 i32.lt_u i32.eqz if ${FAIL} end
      local.get $p call $digits local.set $p
    end
    local.get $p i32.load8_u 0 i32.const 46 i32.eq
    if
      local.get $p i32.load8_u 1 call $digit i32.eqz if ${FAIL} end
      local.get $p i32.const 1 i32.add call $digits local.set $p
    end
    local.get $p i32.load8_u 0 i32.const 32 i32.or i32.const 101 i32.eq
    if
      local.get $p i32.const 1 i32.add local.tee $p i32.load8_u 0 local.tee $c i32.const 43 i32.eq
      local.get $c i32.const 45 i32.eq i32.or
      if local.get $p i32.const 1 i32.add local.set $p end
      local.get $p i32.load8_u 0 call $digit i32.eqz if ${FAIL} end
      local.get $p call $digits local.set $p
    end
    local.get $p`,
  ),
];
