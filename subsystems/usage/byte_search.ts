/**
 * The usage scan's byte work as one small WebAssembly module with 128-bit SIMD: finding lines
 * and the `"usage"` key, and walking a usage line (usage_walk.ts). The searches test 16 bytes per
 * compare where a JavaScript loop over a Uint8Array tests one (measured on a generated pool:
 * newlines found at 17 GB/s here, 1.5 GB/s with `Uint8Array.indexOf`). A first
 * scan finds what carries usage in the bytes and leaves the rest unparsed.
 *
 * Assembled from its text (wasm_text.ts) on a memory the caller owns; the first `BASE` bytes
 * hold the walk's tables, the caller's data starts after them. The searches may read up to
 * `SLACK` bytes past `end`; the caller keeps that much spare memory after its data.
 *
 *   line(p, end): the first i in [p, end) where byte i is "\n", or where bytes i, i+1 and i+6
 *     are `"`, `u` and `"` (the shape of `"usage"`; the caller checks the four letters between);
 *     `end` when there is none.
 *   special(p, end): the first i in [p, end) where byte i ends a plain run inside a JSON string:
 *     `"`, `\` or a control byte (< 0x20); `end` when there is none.
 *   walk(start, end): usage_walk.ts.
 *   values(): usage_values.ts.
 */
import { VALUE_FUNCS, writeValueTables } from "./usage_values.ts";
import { BASE, WALK, WALK_GLOBALS, writeTables } from "./usage_walk.ts";
import { assemble, type WasmFunc } from "./wasm_text.ts";

/** How far past `end` the searches may read (a step reads 32 + 6 + 16 bytes from below `end`). */
export const SLACK = 64;
export { BASE };

export interface ByteSearch {
  line(p: number, end: number): number;
  special(p: number, end: number): number;
  walk(start: number, end: number): number;
  values(): void;
}

/**
 * A search loop over 32 bytes a step: `hits(off)` leaves a vector whose set lanes are matches at
 * p+off .. p+off+15; the two halves' masks make one 32-bit mask (the reader took ~3% less CPU
 * than with 16-byte steps, measured).
 */
const search = (name: string, hits: (off: number) => string): WasmFunc => ({
  name,
  params: ["p", "end"],
  result: true,
  locals: ["hit"],
  exported: true,
  body: `
    block
      loop
        local.get $p local.get $end i32.ge_u br_if 1
        ${hits(0)} i8x16.bitmask
        ${hits(16)} i8x16.bitmask i32.const 16 i32.shl i32.or
        local.tee $hit
        if ;; a lane matched: answer min(p + ctz(hit), end)
          local.get $p local.get $hit i32.ctz i32.add local.tee $hit
          local.get $end local.get $hit local.get $end i32.lt_u select return
        end
        local.get $p i32.const 32 i32.add local.set $p
        br 0
      end
    end
    local.get $end`,
});
const eqAt = (off: number, c: number) =>
  `local.get $p v128.load ${off} i32.const ${c} i8x16.splat i8x16.eq`;

const LINE = search(
  "line",
  (o) =>
    `${eqAt(o, 0x0a)}
     ${eqAt(o, 0x22)} ${eqAt(o + 1, 0x75)} v128.and ${eqAt(o + 6, 0x22)} v128.and
     v128.or`,
);
const SPECIAL = search(
  "special",
  (o) =>
    `${eqAt(o, 0x22)} ${eqAt(o, 0x5c)} v128.or
     local.get $p v128.load ${o} i32.const 0x20 i8x16.splat i8x16.lt_u v128.or`,
);

let compiled: WebAssembly.Module | null = null;

/** The module's functions over `memory` (compiled once per thread); writes the walk's tables. */
export function byteSearch(memory: WebAssembly.Memory): ByteSearch {
  compiled ??= new WebAssembly.Module(
    assemble([LINE, SPECIAL, ...WALK, ...VALUE_FUNCS], WALK_GLOBALS),
  );
  writeTables(new Uint8Array(memory.buffer));
  writeValueTables(new Uint8Array(memory.buffer));
  return new WebAssembly.Instance(compiled, { m: { memory } }).exports as unknown as ByteSearch;
}
