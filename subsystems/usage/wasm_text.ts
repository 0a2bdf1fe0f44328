/**
 * A small assembler for WebAssembly written as flat instruction text (`local.get $p i32.const 1
 * i32.add`), enough for the usage scan's byte searches and line walk (byte_search.ts): i32
 * parameters, i32 locals (`name:f64` for an f64 one), at most one i32 result, mutable i32
 * globals, an imported memory `m.memory`, 128-bit SIMD compares. No toolchain is needed, and the code reads as the text
 * format does. `;;` starts a comment. Branch targets are relative depths, as in the binary.
 */

export interface WasmFunc {
  name: string;
  params: string[];
  result: boolean;
  locals?: string[];
  body: string;
  exported?: boolean;
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) return [...out, b];
    out.push(b | 0x80);
  }
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...new TextEncoder().encode(s)];

/** Instructions without immediates. */
const PLAIN: Record<string, number[]> = {
  "unreachable": [0x00],
  "else": [0x05],
  "end": [0x0b],
  "return": [0x0f],
  "drop": [0x1a],
  "select": [0x1b],
  "i32.eqz": [0x45],
  "i32.eq": [0x46],
  "i32.ne": [0x47],
  "i32.lt_s": [0x48],
  "i32.lt_u": [0x49],
  "i32.gt_s": [0x4a],
  "i32.gt_u": [0x4b],
  "i32.le_s": [0x4c],
  "i32.le_u": [0x4d],
  "i32.ge_s": [0x4e],
  "i32.ge_u": [0x4f],
  "i32.ctz": [0x68],
  "i32.add": [0x6a],
  "i32.sub": [0x6b],
  "i32.mul": [0x6c],
  "i32.and": [0x71],
  "i32.or": [0x72],
  "i32.xor": [0x73],
  "i32.shl": [0x74],
  "i32.shr_u": [0x76],
  "i32.div_u": [0x6e],
  "i32.rem_u": [0x70],
  "f64.add": [0xa0],
  "f64.mul": [0xa2],
  "f64.convert_i32_u": [0xb8],
  "i8x16.splat": [0xfd, 0x0f],
  "i8x16.eq": [0xfd, 0x23],
  "i8x16.lt_u": [0xfd, 0x26],
  "v128.and": [0xfd, 0x4e],
  "v128.or": [0xfd, 0x50],
  "i8x16.bitmask": [0xfd, 0x64],
};
/** Loads and stores: opcode, alignment exponent; the offset follows in the text. */
const MEMORY: Record<string, number[]> = {
  "i32.load": [0x28, 0],
  "i32.load8_u": [0x2d, 0],
  "i32.load16_u": [0x2f, 0],
  "i32.store": [0x36, 0],
  "i64.store": [0x37, 0],
  "i32.store8": [0x3a, 0],
  "f64.store": [0x39, 0],
  "v128.load": [0xfd, 0x00, 0],
};
const BLOCKS: Record<string, number> = { block: 0x02, loop: 0x03, if: 0x04 };

const I32 = 0x7f, F64 = 0x7c;

/** The module's bytes: the functions in order (their index is their place), `globals` as
 * mutable i32s starting at 0, and the memory imported as `m.memory`. */
export function assemble(funcs: WasmFunc[], globals: string[]): Uint8Array<ArrayBuffer> {
  const types: string[] = [];
  const typeOf = (f: WasmFunc) => {
    const key = `${f.params.length}:${f.result}`;
    if (!types.includes(key)) types.push(key);
    return types.indexOf(key);
  };
  const typeIndex = funcs.map(typeOf); // before the type section is written from `types`
  const funcIndex = new Map(funcs.map((f, i) => [f.name, i]));
  const globalIndex = new Map(globals.map((g, i) => [g, i]));
  const code = funcs.map((f) => {
    const declared = (f.locals ?? []).map((l) => l.split(":"));
    const locals = [...f.params, ...declared.map(([name]) => name)];
    const body = compile(f, (s) => index(locals, s, f), funcIndex, globalIndex);
    const groups = declared.map(([, type]) => [1, type === "f64" ? F64 : I32]);
    const fn = [...vec(groups), ...body, 0x0b];
    return [...uleb(fn.length), ...fn];
  });
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    1,
    0,
    0,
    0,
    ...section(
      1,
      vec(types.map((t) => {
        const [n, result] = t.split(":");
        return [
          0x60,
          ...vec(Array.from({ length: +n }, () => [I32])),
          ...(result === "true" ? [1, I32] : [0]),
        ];
      })),
    ),
    ...section(2, vec([[...name("m"), ...name("memory"), 0x02, 0x00, 1]])),
    ...section(3, vec(typeIndex.map((t) => uleb(t)))),
    ...section(6, vec(globals.map(() => [I32, 1, 0x41, 0, 0x0b]))),
    ...section(
      7,
      vec(funcs.flatMap((f, i) => (f.exported ? [[...name(f.name), 0, ...uleb(i)]] : []))),
    ),
    ...section(10, vec(code)),
  ]);
}

function index(names: string[], token: string, f: WasmFunc): number {
  const i = names.indexOf(token.replace(/^\$/, ""));
  if (i < 0) throw new Error(`wasm ${f.name}: no local ${token}`);
  return i;
}

function compile(
  f: WasmFunc,
  local: (s: string) => number,
  funcs: Map<string, number>,
  globals: Map<string, number>,
): number[] {
  const tokens = f.body.replace(/;;[^\n]*/g, "").split(/\s+/).filter((t) => t !== "");
  const out: number[] = [];
  const next = (op: string) => {
    const t = tokens.shift();
    if (t === undefined) throw new Error(`wasm ${f.name}: ${op} wants an operand`);
    return t;
  };
  const num = (op: string) => {
    const t = next(op);
    const n = Number(t);
    if (!Number.isInteger(n)) throw new Error(`wasm ${f.name}: ${op} ${t} is not a number`);
    return n;
  };
  while (tokens.length > 0) {
    const op = tokens.shift()!;
    if (op in PLAIN) out.push(...PLAIN[op]);
    else if (op in MEMORY) out.push(...MEMORY[op], ...uleb(num(op)));
    else if (op in BLOCKS) out.push(BLOCKS[op], 0x40);
    else if (op === "br" || op === "br_if") out.push(op === "br" ? 0x0c : 0x0d, ...uleb(num(op)));
    else if (op === "i32.const") out.push(0x41, ...sleb(num(op)));
    else if (op === "i64.const") out.push(0x42, ...sleb(num(op)));
    else if (op === "f64.const") {
      out.push(0x44, ...new Uint8Array(new Float64Array([num(op)]).buffer));
    } else if (op === "local.get" || op === "local.set" || op === "local.tee") {
      out.push(
        { "local.get": 0x20, "local.set": 0x21, "local.tee": 0x22 }[op],
        ...uleb(local(next(op))),
      );
    } else if (op === "global.get" || op === "global.set") {
      const g = globals.get(next(op).replace(/^\$/, ""));
      if (g === undefined) throw new Error(`wasm ${f.name}: ${op} of an unknown global`);
      out.push(op === "global.get" ? 0x23 : 0x24, ...uleb(g));
    } else if (op === "call") {
      const i = funcs.get(next(op).replace(/^\$/, ""));
      if (i === undefined) throw new Error(`wasm ${f.name}: call of an unknown function`);
      out.push(0x10, ...uleb(i));
    } else throw new Error(`wasm ${f.name}: unknown instruction ${op}`);
  }
  return out;
}
