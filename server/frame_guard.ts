/**
 * The bound on how deeply an inbound frame may nest, checked on the raw text BEFORE JSON.parse
 * builds anything. A 14 MiB frame nested 7.5 M levels costs JSON.parse seconds and hundreds of
 * MiB, stalling every other connection on the one JS thread (issue 12 §3); this scan reads each
 * character once, keeps no stack, and stops at the first bracket past the bound, so a hostile
 * frame is refused after a few hundred characters and an honest one costs one linear pass.
 */

/** No client message nests anywhere near this deep: the deepest wire shape is about 8 levels. */
export const MAX_INBOUND_DEPTH = 64;

/** Where a frame went past the bound: the top-level field it happened under, if any. */
export interface DepthExcess {
  field: string | null;
}

const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACE = 0x7d; // }
const CLOSE_BRACKET = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COLON = 0x3a; // :

/**
 * Scans JSON text for nesting deeper than `max`. Returns null when the text stays within it (the
 * text may still be invalid JSON: that is JSON.parse's to say), else which top-level field was
 * nested too deeply. Brackets inside strings do not count.
 */
export function depthExcess(text: string, max = MAX_INBOUND_DEPTH): DepthExcess | null {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastTopString: [number, number] | null = null;
  let field: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 1) lastTopString = [stringStart, i + 1];
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      stringStart = i;
    } else if (c === COLON && depth === 1 && lastTopString) {
      field = topField(text, lastTopString);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return { field };
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 1) field = null;
    }
  }
  return null;
}

/** The key a top-level string spells, cut short: it only names the field in a refusal. */
function topField(text: string, [start, end]: [number, number]): string {
  const raw = text.slice(start, Math.min(end, start + 66));
  try {
    return JSON.parse(end - start > 66 ? raw + '"' : raw);
  } catch {
    return raw.slice(1, -1);
  }
}
