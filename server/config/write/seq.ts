/**
 * Splices inside a bracketed sequence: an array's elements or an inline table's entries. An
 * element written on its own line is added or dropped as a whole line (its comment with it);
 * an element on a shared line is added or dropped with its comma. Every other byte stays.
 */
import type { ValueNode } from "./lex.ts";

/** One replacement of `text.slice(start, end)` by `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping splices (any order). */
export function applySplices(text: string, splices: Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
  }
  return out;
}

interface Element {
  start: number;
  end: number;
  comma: number | null;
}

function elements(node: ValueNode): Element[] {
  return node.shape === "array"
    ? node.items.map((i) => ({ start: i.value.span.start, end: i.value.span.end, comma: i.comma }))
    : node.entries.map((e) => ({ start: e.keySpan.start, end: e.value.span.end, comma: e.comma }));
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** The offset just past the newline of the line holding `at` (or the end of the text). */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl + 1;
}

/** True when the element has its line to itself: only blanks before, comma and comment after. */
function ownsLine(text: string, el: Element): boolean {
  const before = text.slice(lineStart(text, el.start), el.start);
  const afterFrom = el.comma === null ? el.end : el.comma + 1;
  const after = text.slice(afterFrom, lineEnd(text, afterFrom));
  return /^[ \t]*$/.test(before) && /^[ \t]*(#.*)?\r?\n?$/.test(after);
}

/** Splices that append `rendered` (an element's text) at the end of `node`. */
export function appendSplices(text: string, node: ValueNode, rendered: string): Splice[] {
  const els = elements(node);
  const { start, end } = node.span;
  const [open, close] = node.shape === "array" ? ["[", "]"] : ["{ ", " }"];
  if (els.length === 0) return [{ start, end, text: open + rendered + close }];
  const last = els[els.length - 1];
  const closeAt = end - 1;
  const tail = text.slice(last.comma ?? last.end, closeAt);
  if (!tail.includes("\n")) return [{ start: last.end, end: last.end, text: `, ${rendered}` }];
  // Multi-line: a new line in the last element's indentation, commas as the file writes them.
  const from = lineStart(text, last.start);
  const indent = /^[ \t]*/.exec(text.slice(from, last.start))?.[0] ?? "";
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const at = lineEnd(text, last.comma ?? last.end);
  const out: Splice[] = [{
    start: at,
    end: at,
    text: indent + rendered + (last.comma === null ? "" : ",") + newline,
  }];
  if (last.comma === null) out.push({ start: last.end, end: last.end, text: "," });
  return out;
}

/** Splices that drop element `index` of `node`. */
export function removeSplices(text: string, node: ValueNode, index: number): Splice[] {
  const els = elements(node);
  const el = els[index];
  if (els.length === 1) {
    return [{
      start: node.span.start,
      end: node.span.end,
      text: node.shape === "array" ? "[]" : "{}",
    }];
  }
  const prev = index > 0 ? els[index - 1] : null;
  const next = index + 1 < els.length ? els[index + 1] : null;
  if (ownsLine(text, el)) {
    const out: Splice[] = [{
      start: lineStart(text, el.start),
      end: lineEnd(text, el.comma ?? el.end),
      text: "",
    }];
    // The last element loses its line; its predecessor's comma would dangle, so it goes too.
    if (next === null && el.comma === null && prev !== null && prev.comma !== null) {
      out.push({ start: prev.comma, end: prev.comma + 1, text: "" });
    }
    return out;
  }
  if (next !== null) return [{ start: el.start, end: next.start, text: "" }];
  if (prev !== null && prev.comma !== null && el.comma === null) {
    return [{ start: prev.comma, end: el.end, text: "" }];
  }
  // The last element with a trailing comma: drop it, its comma and the blanks after.
  const after = el.comma === null ? el.end : el.comma + 1;
  const blanks = /^[ \t]*/.exec(text.slice(after))?.[0].length ?? 0;
  return [{ start: el.start, end: after + blanks, text: "" }];
}
