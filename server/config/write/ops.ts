/**
 * Path-level operations on a forge.toml text: set a value and remove a key. Each step splices
 * the text and re-reads it (smol-toml for values, the scan for positions), so a batch of edits
 * always works on what the previous edit wrote.
 */
import { parse } from "smol-toml";
import { isTable, renderValue, sameValue, type TomlValue } from "./render.ts";
import { type Path, pathKey, type Scan, scan } from "./scan.ts";
import { appendSplices, applySplices, removeSplices, type Splice } from "./seq.ts";
import { appendTableSplices, insertKeySplices, removeKeySplices } from "./splice.ts";
import type { ValueNode } from "./lex.ts";

/** A text with its parsed values and its scan. */
export interface Doc {
  text: string;
  data: Record<string, unknown>;
  scan: Scan;
}

/**
 * Parses and scans `text`; throws smol-toml's error when the text is not TOML, and refuses a
 * scan that places a key where the parser has none (a writer bug must not write the file).
 */
export function load(text: string): Doc {
  const doc = { text, data: parse(text), scan: scan(text) };
  for (const loc of doc.scan.keys.values()) {
    if (getAt(doc.data, loc.kind === "row" ? loc.row.path : loc.path) === undefined) {
      const offset = loc.kind === "row" ? loc.row.start : loc.owner.span.start;
      const line = text.slice(0, offset).split("\n").length;
      throw new Error(`the writer's scan disagrees with the parser at line ${line}`);
    }
  }
  return doc;
}

/** The value at a concrete path, or undefined. */
export function getAt(data: unknown, path: Path): unknown {
  let node = data;
  for (const p of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[p];
  }
  return node;
}

/** Applies splices and re-reads the result. */
export function splice(doc: Doc, splices: Splice[]): Doc {
  return splices.length ? load(applySplices(doc.text, splices)) : doc;
}

/** The written value node of the key at `path`, if it is written as a key. */
export function valueNodeAt(doc: Doc, path: Path): ValueNode | null {
  const key = doc.scan.keys.get(pathKey(path));
  if (!key) return null;
  return key.kind === "row" ? key.row.value : key.owner.entries[key.index].value;
}

/** Removes the key (or table) at `path`; an absent key is left absent. */
export function removeKey(doc: Doc, path: Path): Doc {
  return splice(doc, removeKeySplices(doc.scan, path));
}

/**
 * Writes `value` at `path`. An equal value changes nothing; a table is edited key by key and a
 * list item by item where that keeps the lines around them; anything else replaces the value
 * text. A missing key goes into its nearest existing table (a new `[table]` at the end of the
 * file when that is the root). `where` names the key in errors.
 */
export function setValue(doc: Doc, path: Path, value: TomlValue, where: string): Doc {
  const old = getAt(doc.data, path);
  if (old !== undefined && sameValue(old, value)) return doc;
  const node = valueNodeAt(doc, path);
  if (isTable(value) && isTable(old)) {
    let d = doc;
    for (const k of Object.keys(old)) if (!(k in value)) d = removeKey(d, [...path, k]);
    for (const [k, v] of Object.entries(value)) d = setValue(d, [...path, k], v, `${where}.${k}`);
    return d;
  }
  if (Array.isArray(value) && Array.isArray(old) && node?.shape === "array") {
    return setList(doc, path, old, value, where);
  }
  if (node) {
    return splice(doc, [{ ...node.span, text: renderValue(value, where) }]);
  }
  if (old !== undefined) {
    // A table written as [table] or dotted keys, becoming a value of another shape.
    const cleared = removeKey(doc, path);
    if (cleared === doc) throw new Error(`${where}: written in a form the writer cannot edit`);
    return setValue(cleared, path, value, where);
  }
  return insert(doc, path, value, where);
}

function insert(doc: Doc, path: Path, value: TomlValue, where: string): Doc {
  for (let i = path.length - 1; i >= 0; i--) {
    const loc = doc.scan.tables.get(pathKey(path.slice(0, i)));
    if (!loc) continue;
    const rel = path.slice(i);
    if (!rel.every((p): p is string => typeof p === "string")) {
      throw new Error(`${where}: its entry is written inline, which the writer cannot edit`);
    }
    if (loc.kind === "root" && (rel.length > 1 || isTable(value))) {
      // A new table at the end of the file rather than a dotted key above every header.
      const rows: [string, string][] = isTable(value)
        ? Object.entries(value).map(([k, v]) => [k, renderValue(v, `${where}.${k}`)])
        : [[rel[rel.length - 1], renderValue(value, where)]];
      const key = isTable(value) ? rel : rel.slice(0, -1);
      return splice(doc, appendTableSplices(doc.scan, key, rows));
    }
    // A missing table inside an existing one is written inline: `model_slugs = { m = "x" }`.
    const nested = rel.slice(1).reduceRight<TomlValue>((v, k) => ({ [k]: v }), value);
    return splice(doc, insertKeySplices(doc.scan, loc, [rel[0]], renderValue(nested, where)));
  }
  throw new Error(`${where}: no table in the file can hold it`);
}

/**
 * A list edited in place: the longest prefix of the new list that is a subsequence of the old
 * one keeps its items (and their comments); the other old items go and the rest is appended.
 */
function setList(doc: Doc, path: Path, old: unknown[], next: TomlValue[], where: string): Doc {
  const keep = new Set<number>();
  let j = 0;
  for (let i = 0; i < old.length && j < next.length; i++) {
    if (sameValue(old[i], next[j])) {
      keep.add(i);
      j++;
    }
  }
  let d = doc;
  for (let i = old.length - 1; i >= 0; i--) {
    if (keep.has(i)) continue;
    const node = valueNodeAt(d, path);
    if (!node) throw new Error(`${where}: the list moved while it was edited`);
    d = splice(d, removeSplices(d.text, node, i));
  }
  for (; j < next.length; j++) d = appendItem(d, path, next[j], `${where}[${j}]`);
  return d;
}

/** Appends one item to the list written at `path`. */
export function appendItem(doc: Doc, path: Path, item: TomlValue, where: string): Doc {
  const node = valueNodeAt(doc, path);
  if (node?.shape !== "array") throw new Error(`${where}: not written as a list`);
  return splice(doc, appendSplices(doc.text, node, renderValue(item, where)));
}

/** Removes item `index` of the list written at `path`. */
export function removeItem(doc: Doc, path: Path, index: number, where: string): Doc {
  const node = valueNodeAt(doc, path);
  if (node?.shape !== "array") throw new Error(`${where}: not written as a list`);
  return splice(doc, removeSplices(doc.text, node, index));
}
