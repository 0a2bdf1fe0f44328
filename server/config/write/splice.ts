/**
 * Text splices on a scanned forge.toml, addressed by concrete path: insert a key row, remove a
 * key, remove a table or entry with its sub-tables, append an `[[array]]` entry or a `[table]`.
 * Each returns splices over the scanned text; nothing outside them changes.
 *
 * A removed key leaves its table in place, however the table is written.
 *
 * Comment ownership (spec: Editing the config, "the writer preserves the file's comments"):
 * a removed key takes only its own lines (its trailing comment, comments inside its value).
 * A removed table or entry takes its header's lead comments (the run directly above it, no
 * blank line between), everything inside it, and the comments directly after its last row.
 * A comment separated from both by blank lines (a banner) belongs to nobody and stays.
 */
import { renderKey } from "./render.ts";
import { type Block, type Path, pathKey, type Scan, type TableLoc } from "./scan.ts";
import { appendSplices, removeSplices, type Splice } from "./seq.ts";

/** True when `path` starts with `prefix`. */
export function under(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
}

function itemIndex(s: Scan, start: number): number {
  return s.items.findIndex((it) => it.start === start);
}

/** The start of a header's lead: the comment lines directly above it. */
function leadStart(s: Scan, block: Block): number {
  let i = itemIndex(s, block.start);
  while (i > 0 && s.items[i - 1].kind === "comment") i--;
  return s.items[i].start;
}

/** The end of a block's content, plus the comments right after it that no header claims. */
function tailEnd(s: Scan, block: Block): number {
  const contentEnd = block.rows.length ? block.rows[block.rows.length - 1].end : block.headerEnd;
  let i = s.items.findIndex((it) => it.end === contentEnd) + 1;
  let end = contentEnd;
  while (i < s.items.length && s.items[i].kind === "comment") end = s.items[i++].end;
  return i < s.items.length && s.items[i].kind === "header" ? contentEnd : end;
}

/** The text that ends the file's last line, when it lacks one, before appending at the end. */
function endOfText(s: Scan): string {
  return s.text.length > 0 && !s.text.endsWith("\n") ? s.newline : "";
}

/** Splices that remove every `[table]` / `[[entry]]` block at or under `prefix`. */
export function removeBlocksSplices(s: Scan, prefix: Path): Splice[] {
  const hit = s.blocks.map((b) => b.kind !== "root" && under(b.path, prefix));
  const out: Splice[] = [];
  for (let i = 0; i < hit.length; i++) {
    if (!hit[i]) continue;
    let j = i;
    while (j + 1 < hit.length && hit[j + 1]) j++;
    let start = leadStart(s, s.blocks[i]);
    let end = tailEnd(s, s.blocks[j]);
    let k = s.items.findIndex((it) => it.start === end);
    while (k >= 0 && k < s.items.length && s.items[k].kind === "blank") k++;
    const first = itemIndex(s, start);
    const spaced = first === 0 || s.items[first - 1].kind === "blank";
    if (k >= 0 && k < s.items.length) {
      // One separation stays: the blank lines before the run, else those after it.
      if (spaced) end = s.items[k].start;
    } else {
      // The run ends the file: drop the blank lines before it instead.
      end = s.text.length;
      let b = itemIndex(s, start);
      while (b > 0 && s.items[b - 1].kind === "blank") b--;
      start = s.items[b].start;
    }
    out.push({ start, end, text: "" });
    i = j;
  }
  return out;
}

/** Splices that insert `rel = rendered` into the table at `loc`. */
export function insertKeySplices(
  s: Scan,
  loc: TableLoc,
  rel: string[],
  rendered: string,
): Splice[] {
  if (loc.kind === "inline") {
    return appendSplices(s.text, loc.node, `${renderKey(rel)} = ${rendered}`);
  }
  let key = rel;
  let rows = loc.block.rows;
  if (loc.kind === "dotted") {
    key = [...loc.prefix, ...rel];
    rows = rows.filter((r) => under(r.key, loc.prefix));
  }
  const last = rows.length ? rows[rows.length - 1] : null;
  let at: number;
  if (last) at = last.end;
  else if (loc.kind === "root") {
    const first = s.blocks.find((b) => b.kind !== "root");
    at = first ? leadStart(s, first) : s.text.length;
  } else at = loc.block.headerEnd;
  const indent = last ? last.indent : loc.block.indent;
  const pre = at === s.text.length ? endOfText(s) : "";
  return [{
    start: at,
    end: at,
    text: `${pre}${indent}${renderKey(key)} = ${rendered}${s.newline}`,
  }];
}

/** Splices that remove the key at `path`: its row, its inline entry, or its whole table. */
export function removeKeySplices(s: Scan, path: Path): Splice[] {
  const at = pathKey(path);
  const key = s.keys.get(at);
  if (key?.kind === "row") {
    const { row } = key;
    const parent = row.key.slice(0, -1);
    // The last dotted key of a table (`env.A = "1"`) defines that table; the table stays, as
    // a [table] or an inline one would, so the row becomes `env = {}`.
    const alone = parent.length > 0 &&
      !row.block.rows.some((r) => r !== row && under(r.key, parent));
    const text = alone ? `${row.indent}${renderKey(parent)} = {}${s.newline}` : "";
    return [{ start: row.start, end: row.end, text }];
  }
  if (key?.kind === "inline") return removeSplices(s.text, key.owner, key.index);
  const table = s.tables.get(at);
  if (table?.kind === "header") return removeBlocksSplices(s, path);
  if (table?.kind === "dotted") {
    return table.block.rows.filter((r) => under(r.key, table.prefix))
      .map((r) => ({ start: r.start, end: r.end, text: "" }));
  }
  return []; // already absent: clearing an unset key changes nothing
}

/** A new section's text: a blank line, `[key]` or `[[key]]`, then its rows. */
function section(
  s: Scan,
  key: string[],
  isArray: boolean,
  rows: [string, string][],
  indent: { header: string; row: string; blank: boolean },
): string {
  const nl = s.newline;
  const head = isArray ? `[[${renderKey(key)}]]` : `[${renderKey(key)}]`;
  const body = rows.map(([k, v]) => `${indent.row}${renderKey([k])} = ${v}${nl}`).join("");
  return `${indent.blank ? nl : ""}${indent.header}${head}${nl}${body}`;
}

/** Splices that append a `[key]` table with `rows` (key, rendered value) at the end of the file. */
export function appendTableSplices(s: Scan, key: string[], rows: [string, string][]): Splice[] {
  const blank = s.text.trim() !== "";
  const text = endOfText(s) + section(s, key, false, rows, { header: "", row: "", blank });
  return [{ start: s.text.length, end: s.text.length, text }];
}

/**
 * Splices that append an entry to the array of tables at `arrayPath` (`["accounts"]`,
 * `["orgs", 0, "projects"]`): right after the last entry (its sub-tables included), in that
 * entry's indentation and spacing; or after the parent entry when the array is still empty.
 */
export function appendEntrySplices(s: Scan, arrayPath: Path, rows: [string, string][]): Splice[] {
  const header = arrayPath.filter((p): p is string => typeof p === "string");
  const siblings = s.blocks.filter((b) =>
    b.kind === "array" && b.path.length === arrayPath.length + 1 && under(b.path, arrayPath)
  );
  const anchorPath = siblings.length ? siblings[siblings.length - 1].path : arrayPath.slice(0, -1);
  if (s.keys.has(pathKey(arrayPath))) {
    throw new Error(`${header.join(".")} is written as an inline array; edit that line by hand`);
  }
  const model = siblings.length ? siblings[siblings.length - 1] : null;
  // Match the last sibling (else the parent entry): its indentation, and whether a blank line
  // sets it apart from what precedes it.
  const parent = s.blocks.find((b) => b.kind !== "root" && pathKey(b.path) === pathKey(anchorPath));
  const styled = model ?? parent;
  const before = styled ? s.items[itemIndex(s, leadStart(s, styled)) - 1] : undefined;
  const indent = {
    header: model?.indent ?? "",
    row: model?.rows[0]?.indent ?? model?.indent ?? "",
    blank: s.text.trim() !== "" && (before === undefined || before.kind === "blank"),
  };
  let at = s.text.length;
  if (anchorPath.length > 0) {
    const anchors = s.blocks.filter((b) => b.kind !== "root" && under(b.path, anchorPath));
    if (anchors.length === 0) {
      throw new Error(`no table is written for ${JSON.stringify(anchorPath)} to hold the entry`);
    }
    at = tailEnd(s, anchors[anchors.length - 1]);
  }
  const pre = at === s.text.length ? endOfText(s) : "";
  return [{ start: at, end: at, text: pre + section(s, header, true, rows, indent) }];
}
