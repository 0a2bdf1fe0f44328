/**
 * The bound on how deeply an inbound frame may nest, checked on the raw text BEFORE JSON.parse
 * builds anything. A 14 MiB frame nested 7.5 M levels costs JSON.parse seconds and hundreds of
 * MiB, stalling every other connection on the one JS thread; this scan reads each
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

/** What one pass over an inbound frame found: its UTF-8 size, or the field it nested too deep. */
export type FrameScan = { bytes: number; deep: null } | { bytes: null; deep: DepthExcess };

/**
 * One pass over a frame's text: it counts the UTF-8 bytes (for the 16 MiB bound) and watches the
 * nesting, stopping at the first bracket deeper than `max`, so a hostile frame costs a few hundred
 * characters and an honest one the single pass the size check needed anyway. Brackets inside
 * strings do not count; the text may still be invalid JSON, which is JSON.parse's to say.
 */
export function scanFrame(text: string, max = MAX_INBOUND_DEPTH): FrameScan {
  let depth = 0;
  let bytes = text.length;
  let inString = false;
  let stringStart = -1;
  let lastTopString: [number, number] | null = null;
  let field: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      // UTF-16 to UTF-8: two bytes below U+0800, three above, four for a surrogate pair.
      if (c < 0x800) bytes += 1;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        bytes += 2;
        i++;
      } else bytes += 2;
      continue;
    }
    if (inString) {
      if (c === BACKSLASH) {
        i++;
        if (i < text.length && text.charCodeAt(i) >= 0x80) i--; // let the loop count it
      } else if (c === QUOTE) {
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
      if (++depth > max) return { bytes: null, deep: { field } };
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 1) field = null;
    }
  }
  return { bytes, deep: null };
}

/** The nesting half of `scanFrame`: null within the bound, else the field nested too deeply. */
export function depthExcess(text: string, max = MAX_INBOUND_DEPTH): DepthExcess | null {
  return scanFrame(text, max).deep;
}

/** The key a top-level string spells, cut short: it only names the field in a refusal. */
function topField(text: string, [start, end]: [number, number]): string {
  const raw = text.slice(start, Math.min(end, start + 66));
  try {
    return JSON.parse(end - start > 66 ? raw + '"' : raw);
  } catch {
    // Escapes cut at the bound do not parse: the raw characters name the field well enough.
    return raw.slice(1, -1);
  }
}
