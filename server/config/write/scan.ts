/**
 * The writer's map of a forge.toml: every line classified (blank, comment, header, row), every
 * header and row given its concrete path (`["orgs", 0, "projects", 1, "env"]`) by TOML's own
 * rules for arrays of tables, and every key and table located by that path. Built on `Lexer`.
 */
import { Lexer, type Span, type ValueNode } from "./lex.ts";

/** A concrete TOML path: table keys, with array indices where a table repeats. */
export type Path = (string | number)[];

/** A `key = value` written on its own line(s) in a block. */
export interface Row {
  key: string[];
  keySpan: Span;
  path: Path;
  value: ValueNode;
  /** Start of the row's first line, and the end of its last line including the newline. */
  start: number;
  end: number;
  indent: string;
  block: Block;
}

/** The root, or a `[table]` / `[[array]]` header and the rows under it. */
export interface Block {
  kind: "root" | "table" | "array";
  key: string[];
  path: Path;
  /** The header line (empty span for the root). */
  start: number;
  headerEnd: number;
  indent: string;
  rows: Row[];
}

/** A line-level item, in document order. A row may span several lines. */
export type Item =
  | { kind: "blank"; start: number; end: number }
  | { kind: "comment"; start: number; end: number }
  | { kind: "header"; start: number; end: number; block: Block }
  | { kind: "row"; start: number; end: number; row: Row };

/** Where a key's value is written: its own row, or an entry inside an inline table. */
export type KeyLoc =
  | { kind: "row"; row: Row }
  | { kind: "inline"; owner: ValueNode; index: number; path: Path };

/** Where a table's own keys are written. */
export type TableLoc =
  | { kind: "root"; block: Block }
  | { kind: "header"; block: Block }
  | { kind: "dotted"; block: Block; prefix: string[] }
  | { kind: "inline"; node: ValueNode };

/** The scan of one text. `keys` and `tables` are keyed by `pathKey(path)`. */
export interface Scan {
  text: string;
  newline: string;
  items: Item[];
  blocks: Block[];
  keys: Map<string, KeyLoc>;
  tables: Map<string, TableLoc>;
}

/**
 * The map key of a concrete path: each part length-prefixed, so no key text can collide.
 * (Not JSON: Deno 2.9.6's JSON.parse misreads some escaped keys, see scan_test.ts.)
 */
export function pathKey(path: Path): string {
  return path.map((p) => `${typeof p === "number" ? "#" : "$"}${String(p).length}:${p}`).join("");
}

interface Shadow {
  children: Map<string, Shadow | Shadow[]>;
}

/** Scans text that smol-toml has accepted. Throws only on a lexer bug. */
export function scan(text: string): Scan {
  const lx = new Lexer(text);
  if (text.startsWith("\uFEFF")) lx.pos = 1; // a BOM is not part of the first line
  const root: Block = {
    kind: "root",
    key: [],
    path: [],
    start: 0,
    headerEnd: 0,
    indent: "",
    rows: [],
  };
  const out: Scan = {
    text,
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    items: [],
    blocks: [root],
    keys: new Map(),
    tables: new Map([[pathKey([]), { kind: "root", block: root }]]),
  };
  const shadow: Shadow = { children: new Map() };
  let block = root;
  while (lx.pos < text.length) {
    const start = lx.pos;
    lx.skipWs();
    const indent = text.slice(start, lx.pos);
    const ch = text[lx.pos];
    if (ch === "\n" || ch === "\r" || ch === undefined) {
      endLine(lx);
      out.items.push({ kind: "blank", start, end: lx.pos });
    } else if (ch === "#") {
      endLine(lx);
      out.items.push({ kind: "comment", start, end: lx.pos });
    } else if (ch === "[") {
      const isArray = lx.at("[[");
      lx.pos += isArray ? 2 : 1;
      const key = lx.key().parts;
      lx.skipWs();
      lx.pos += isArray ? 2 : 1;
      endLine(lx);
      const path = resolveHeader(shadow, key, isArray);
      block = {
        kind: isArray ? "array" : "table",
        key,
        path,
        start,
        headerEnd: lx.pos,
        indent,
        rows: [],
      };
      out.blocks.push(block);
      out.tables.set(pathKey(path), { kind: "header", block });
      out.items.push({ kind: "header", start, end: lx.pos, block });
    } else {
      const key = lx.key();
      lx.skipWs();
      if (text[lx.pos] !== "=") lx.fail("a key/value line");
      lx.pos++;
      lx.skipWs();
      const value = lx.value();
      endLine(lx);
      const path = [...block.path, ...key.parts];
      const row: Row = {
        key: key.parts,
        keySpan: key.span,
        path,
        value,
        start,
        end: lx.pos,
        indent,
        block,
      };
      block.rows.push(row);
      out.items.push({ kind: "row", start, end: lx.pos, row });
      out.keys.set(pathKey(path), { kind: "row", row });
      for (let i = 1; i < key.parts.length; i++) {
        const prefix = key.parts.slice(0, i);
        const at = pathKey([...block.path, ...prefix]);
        if (!out.tables.has(at)) out.tables.set(at, { kind: "dotted", block, prefix });
      }
      indexInline(out, value, path);
    }
  }
  return out;
}

/** Skips the rest of a line (trailing space and comment) and its newline. */
function endLine(lx: Lexer): void {
  lx.skipWs();
  if (lx.text[lx.pos] === "#") lx.toLineEnd();
  if (lx.text[lx.pos] === "\r") lx.pos++;
  if (lx.text[lx.pos] === "\n") lx.pos++;
  else if (lx.pos < lx.text.length) lx.fail("the end of a line");
}

/** Indexes the keys and tables written inside an inline table value. */
function indexInline(out: Scan, value: ValueNode, path: Path): void {
  if (value.shape !== "inline_table") return;
  out.tables.set(pathKey(path), { kind: "inline", node: value });
  value.entries.forEach((entry, index) => {
    const full = [...path, ...entry.key];
    out.keys.set(pathKey(full), { kind: "inline", owner: value, index, path: full });
    indexInline(out, entry.value, full);
  });
}

/** TOML's rule: a header's key walks into the LAST entry of every array of tables it crosses. */
function resolveHeader(shadow: Shadow, key: string[], isArray: boolean): Path {
  const path: Path = [];
  let node = shadow;
  key.forEach((part, i) => {
    const last = i === key.length - 1;
    let child = node.children.get(part);
    if (last && isArray) {
      const list = Array.isArray(child) ? child : [];
      list.push({ children: new Map() });
      node.children.set(part, list);
      path.push(part, list.length - 1);
      node = list[list.length - 1];
      return;
    }
    if (child === undefined) {
      child = { children: new Map() };
      node.children.set(part, child);
    }
    if (Array.isArray(child)) {
      path.push(part, child.length - 1);
      node = child[child.length - 1];
    } else {
      path.push(part);
      node = child;
    }
  });
  return path;
}
