/**
 * The numbers of a walked usage line, read in WebAssembly where the walk left them
 * (usage_walk.ts): the token counts as `count()` of the parsed value gives them, and the
 * timestamp as `Date.parse` gives it for the CLI's own form (`2026-12-02T09:56:26.643Z`).
 * Anything else - a count with a sign, a fraction, an exponent or more than 15 digits, another
 * time form, a date past its month's end - is answered -1, and the reader works it out in
 * JavaScript from the text. Reading them here saves a dozen calls a line into typed arrays.
 *
 *   values(): fills the f64 table at VALUES, indexed by field (F).
 */
import { F, K, TABLE } from "./usage_walk.ts";
import type { WasmFunc } from "./wasm_text.ts";

/** Where the values lie: an f64 per field. */
export const VALUES = 768;
const ISO_AT = 896;
const ISO = "0000-00-00T00:00:00.000Z"; // "0": a digit

/** Writes the time form the fast read knows. */
export function writeValueTables(b: Uint8Array): void {
  b.set(new TextEncoder().encode(ISO), ISO_AT);
}

const fn = (name: string, params: string[], locals: string[], body: string): WasmFunc => ({
  name,
  params,
  locals,
  result: name === "dd",
  body,
  exported: name === "values",
});
const ASK = (f: string) => `${f} i32.const 8 i32.mul f64.const -1 f64.store ${VALUES} return`;
const TIME = F.timestamp;
/** A range check of a local: leave unless lo <= x <= hi. */
const within = (x: string, lo: number, hi: number) =>
  `local.get ${x} i32.const ${lo} i32.sub i32.const ${hi - lo} i32.gt_u if ${
    ASK(`i32.const ${TIME}`)
  } end`;

export const VALUE_FUNCS: WasmFunc[] = [
  // Two digits at p as a number.
  fn(
    "dd",
    ["p"],
    [],
    `
    local.get $p i32.load8_u 0 i32.const 48 i32.sub i32.const 10 i32.mul
    local.get $p i32.load8_u 1 i32.const 48 i32.sub i32.add`,
  ),
  // A count field: its plain digits' value, 0 when it is not a number, -1 to ask.
  fn(
    "count",
    ["f"],
    ["s", "e", "c", "v:f64"],
    `
    local.get $f i32.load8_u ${TABLE.kind} i32.const ${K.number} i32.ne
    if local.get $f i32.const 8 i32.mul f64.const 0 f64.store ${VALUES} return end
    local.get $f i32.const 4 i32.mul i32.load ${TABLE.start} local.set $s
    local.get $f i32.const 4 i32.mul i32.load ${TABLE.end} local.set $e
    local.get $e local.get $s i32.sub i32.const 15 i32.gt_u if ${ASK("local.get $f")} end
    block
      loop
        local.get $s local.get $e i32.ge_u br_if 1
        local.get $s i32.load8_u 0 i32.const 48 i32.sub local.tee $c i32.const 10 i32.ge_u
        if ${ASK("local.get $f")} end
        local.get $v f64.const 10 f64.mul local.get $c f64.convert_i32_u f64.add local.set $v
        local.get $s i32.const 1 i32.add local.set $s
        br 0
      end
    end
    local.get $f i32.const 8 i32.mul local.get $v f64.store ${VALUES}`,
  ),
  // The timestamp: ms since the epoch (Date.UTC of its parts, days from the civil date).
  fn(
    "iso",
    [],
    ["s", "i", "c", "y", "mo", "d", "h", "mi", "sec", "ms", "dim", "yy", "era", "yoe", "doy"],
    `
    i32.const ${TIME} i32.load8_u ${TABLE.kind} i32.const ${K.string} i32.ne
    if ${ASK(`i32.const ${TIME}`)} end
    i32.const ${TIME} i32.load8_u ${TABLE.escaped} if ${ASK(`i32.const ${TIME}`)} end
    i32.const ${TIME * 4} i32.load ${TABLE.end}
    i32.const ${TIME * 4} i32.load ${TABLE.start} local.tee $s i32.sub i32.const 24 i32.ne
    if ${ASK(`i32.const ${TIME}`)} end
    block
      loop
        local.get $i i32.const 24 i32.ge_u br_if 1
        local.get $s local.get $i i32.add i32.load8_u 0 local.set $c
        local.get $i i32.load8_u ${ISO_AT} i32.const 48 i32.eq
        if
          local.get $c i32.const 48 i32.sub i32.const 10 i32.ge_u if ${ASK(`i32.const ${TIME}`)} end
        else
          local.get $c local.get $i i32.load8_u ${ISO_AT} i32.ne if ${ASK(`i32.const ${TIME}`)} end
        end
        local.get $i i32.const 1 i32.add local.set $i
        br 0
      end
    end
    local.get $s call $dd i32.const 100 i32.mul local.get $s i32.const 2 i32.add call $dd i32.add
    local.set $y
    local.get $s i32.const 5 i32.add call $dd local.set $mo
    local.get $s i32.const 8 i32.add call $dd local.set $d
    local.get $s i32.const 11 i32.add call $dd local.set $h
    local.get $s i32.const 14 i32.add call $dd local.set $mi
    local.get $s i32.const 17 i32.add call $dd local.set $sec
    local.get $s i32.const 20 i32.add call $dd i32.const 10 i32.mul
    local.get $s i32.load8_u 22 i32.const 48 i32.sub i32.add local.set $ms
    ${within("$y", 1970, 9999)} ${within("$mo", 1, 12)} ${within("$h", 0, 23)}
    ${within("$mi", 0, 59)} ${within("$sec", 0, 59)}
    ;; the month's days: February 28 or 29, else 30 + ((mo + (mo >> 3)) & 1)
    local.get $mo i32.const 2 i32.eq
    if
      local.get $y i32.const 4 i32.rem_u i32.eqz local.get $y i32.const 100 i32.rem_u i32.const 0 i32.ne i32.and
      local.get $y i32.const 400 i32.rem_u i32.eqz i32.or i32.const 28 i32.add local.set $dim
    else
      local.get $mo local.get $mo i32.const 3 i32.shr_u i32.add i32.const 1 i32.and i32.const 30 i32.add
      local.set $dim
    end
    local.get $d i32.const 1 i32.sub local.get $dim i32.const 1 i32.sub i32.gt_u
    if ${ASK(`i32.const ${TIME}`)} end
    ;; days from the civil date (years from March, so leap days end a year)
    local.get $y local.get $mo i32.const 3 i32.lt_u i32.sub local.tee $yy i32.const 400 i32.div_u local.set $era
    local.get $yy local.get $era i32.const 400 i32.mul i32.sub local.set $yoe
    local.get $mo i32.const 9 i32.add i32.const 12 i32.rem_u i32.const 153 i32.mul i32.const 2 i32.add
    i32.const 5 i32.div_u local.get $d i32.add i32.const 1 i32.sub local.set $doy
    i32.const ${TIME * 8}
    local.get $era i32.const 146097 i32.mul
    local.get $yoe i32.const 365 i32.mul i32.add local.get $yoe i32.const 4 i32.div_u i32.add
    local.get $yoe i32.const 100 i32.div_u i32.sub local.get $doy i32.add i32.const 719468 i32.sub
    f64.convert_i32_u f64.const 86400000 f64.mul
    local.get $h i32.const 3600000 i32.mul local.get $mi i32.const 60000 i32.mul i32.add
    local.get $sec i32.const 1000 i32.mul i32.add local.get $ms i32.add
    f64.convert_i32_u f64.add
    f64.store ${VALUES}`,
  ),
  fn(
    "values",
    [],
    [],
    `
    i32.const ${F.input} call $count i32.const ${F.output} call $count
    i32.const ${F.cacheCreation} call $count i32.const ${F.cacheRead} call $count
    i32.const ${F.split1h} call $count
    call $iso`,
  ),
];
