/**
 * Cursors. spec: "The cursor is a position, not an index. Echo it back as before and do not take
 * it apart: above the window's floor it names the message the page's first turn opens on, below
 * it names the row the page stopped at by the byte that row starts at, and what either is made
 * of is the server's business".
 *
 * The pager's own ROW cursor is `t:` and the row's byte offset in decimal (`t:48213`).
 *
 * A WIRE cursor (what a `page` and the snapshot's `conversation.cursor` carry) adds the session
 * whose transcript it is in, so a cursor always names one conversation, whoever occupies the seat
 * when it comes back (spec: a repair "across two epochs would splice one conversation onto
 * another" - so would a page):
 * - below the floor, `t:<offset>@<session id>`;
 * - above it, `w:<window>:<index>:<anchor>@<session id>`: the window that minted it (a window
 *   is one occupant's, in one server run), the absolute index of the entry the page's first turn
 *   opens on, and the uuid of that turn's first frame the transcript also carries (`-` when none
 *   is held), which is where a walk continues on disk once the window is gone (a restart, a new
 *   occupant, the front dropped past it).
 */

const PREFIX = "t:";
const DIGITS = /^(0|[1-9][0-9]*)$/;
const SESSION = /^[0-9A-Za-z-]{1,64}$/;
const WINDOW = /^[0-9a-f]{1,16}$/;
const ANCHOR = /^[0-9A-Za-z-]{1,64}$/;

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
  return decimal(cursor.slice(PREFIX.length));
}

/** A position in one session's conversation: a transcript row, or an entry of a held window. */
export type WireCursor =
  | { side: "row"; session: string; offset: number }
  | { side: "window"; session: string; window: string; index: number; anchor: string | null };

/** The wire text of a cursor (see the module note). */
export function encodeCursor(c: WireCursor): string {
  if (!SESSION.test(c.session)) throw new RangeError(`cursor: bad session id ${c.session}`);
  if (c.side === "row") return `${rowCursor(c.offset)}@${c.session}`;
  if (!WINDOW.test(c.window) || !Number.isSafeInteger(c.index) || c.index < 0) {
    throw new RangeError(`cursor: bad window position ${c.window}:${c.index}`);
  }
  const anchor = c.anchor !== null && ANCHOR.test(c.anchor) ? c.anchor : "-";
  return `w:${c.window}:${c.index}:${anchor}@${c.session}`;
}

/** The position a wire cursor names, or null when `text` is not one this server writes. */
export function decodeCursor(text: string): WireCursor | null {
  const at = text.lastIndexOf("@");
  if (at < 0) return null;
  const session = text.slice(at + 1);
  const body = text.slice(0, at);
  if (!SESSION.test(session)) return null;
  if (body.startsWith(PREFIX)) {
    const offset = parseRowCursor(body);
    return offset === null ? null : { side: "row", session, offset };
  }
  const parts = body.split(":");
  if (parts.length !== 4 || parts[0] !== "w" || !WINDOW.test(parts[1])) return null;
  const index = decimal(parts[2]);
  if (index === null || !ANCHOR.test(parts[3])) return null;
  const anchor = parts[3] === "-" ? null : parts[3];
  return { side: "window", session, window: parts[1], index, anchor };
}

function decimal(digits: string): number | null {
  if (!DIGITS.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}
