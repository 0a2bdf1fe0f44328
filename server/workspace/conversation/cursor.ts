/**
 * The cursor below the window's floor. spec: "The cursor is a position, not an index ... below
 * it names the row the page stopped at by the byte that row starts at, and what either is made
 * of is the server's business".
 *
 * Format: `t:` and the row's byte offset in decimal (`t:48213`). The prefix keeps it apart from
 * the window's own cursor (a frame's number, all digits), so one `before` tells which side of
 * the floor it came from. Clients echo it and never take it apart.
 */

const PREFIX = "t:";
const DIGITS = /^(0|[1-9][0-9]*)$/;

/** The cursor naming the row that starts at byte `offset`. */
export function rowCursor(offset: number): string {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError(`row cursor: ${offset} is not a byte offset`);
  }
  return PREFIX + offset;
}

/** The byte offset a transcript cursor names, or null when `cursor` is not one. */
export function parseRowCursor(cursor: string): number | null {
  if (!cursor.startsWith(PREFIX)) return null;
  const digits = cursor.slice(PREFIX.length);
  if (!DIGITS.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}
