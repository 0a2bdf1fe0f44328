/**
 * A page of a session's conversation read from its transcript, below the window's floor.
 * spec: `more`, `page`; "A cursor below the held window is the exception, and it is answered
 * either way"; "a page never opens on a tool result without the call that produced it"; "A turn
 * can carry a frame the CLI did not send"; "The cursor is a position, not an index".
 *
 * The page rule. Reading backwards from the cursor's row (from the file's end when there is no
 * cursor), rows fold into turns by `turns.ts`; the page is up to `turns` WHOLE turns ending just
 * above the cursor, oldest first, within `pageBytes` of row text:
 * - a turn that would take the page over `pageBytes` is left for the next page, unless it is the
 *   page's first (newest): a turn alone over the bound is carried as a STRETCH, its newest rows,
 *   cut where no tool result in the stretch waits for its call (spec: a page below the floor
 *   "can carry a stretch inside a turn", and never opens on a result without its call). A call
 *   whose row the file lacks stops holding the cut back at 4x the bound (8 MiB at least);
 * - the cursor names the page's oldest row by the byte it starts at, or is null when no carried
 *   row is above it. Every page is cut on rows, and a row's offset never changes, so any walk
 *   from any cursor covers the same descending chain of rows, each once.
 * - rows before the cursor's turn began belong to it (a cursor inside a turn - the window's floor
 *   in a running turn, or a stretch's cut - continues that turn): the page's newest turn is then
 *   that turn's older rows.
 *
 * A backgrounded call's ending that landed in a later turn (its own row stays there) is carried
 * again, forged (`endingFrame`), at the end of the turn holding the call. The ending is looked
 * for in the page and then forward of it, at most `forwardScanBytes`; one further away is not
 * carried.
 *
 * A cursor at the file's very end (its size) names the row the session will write next: the
 * page is the file's newest (the floor of a window whose session has written nothing yet).
 *
 * Where the transcript cannot answer - no file, a cursor naming no row of it, a row past the
 * read cap - the answer IS the empty page (`turns: []`, `cursor: null`). Anything else that
 * fails (an unreadable file) throws, and the caller answers `error {what: "more"}`.
 */
import { parseRowCursor, rowCursor } from "./cursor.ts";
import { type Frame, lineFrame } from "./rows.ts";
import { type ReaderOptions, TranscriptFile } from "./transcript_reader.ts";
import {
  backgroundedCalls,
  endingFrame,
  isPreamble,
  opensTurn,
  type TaskEnding,
  taskEnding,
  toolResultIds,
  toolUseIds,
} from "./turns.ts";

/** `more` turns are clamped to 1..=20, as the original forge's SUBSCRIBE_TURNS clamps them. */
export const MAX_TURNS = 20;
/** A page's bound on row text: 2 MiB, the `[server] first_frame_cap_kb` default. */
export const PAGE_BYTES = 2 << 20;
/** How far past the page an ending is looked for: 8 MiB. */
export const FORWARD_SCAN_BYTES = 8 << 20;
/** A result whose call row the file lacks stops holding a stretch's cut back past this. */
const HARD_BYTES = 8 << 20;

/** A transcript-derived turn: spec "key is null on every turn of a transcript-derived
 * conversation". */
export interface PageTurn {
  key: null;
  messages: Frame[];
}

/** The `page` answer's body (without `conversation`, which the caller names). */
export interface Page {
  turns: PageTurn[];
  cursor: string | null;
  /** Fired prompts' schedules keyed by the prompt's id; absent when the page holds none. */
  cron_names?: Record<string, string>;
}

export interface PageOptions extends ReaderOptions {
  pageBytes?: number;
  forwardScanBytes?: number;
  /** The schedule a prompt was fired from, by the prompt's uuid (forge mints and records it). */
  cronName?: (promptUuid: string) => string | undefined;
}

/** A carried row: its frame, where it starts and its size. */
interface Row {
  offset: number;
  frame: Frame;
  bytes: number;
}

export const EMPTY_PAGE: Readonly<Page> = Object.freeze({ turns: [], cursor: null });

/** `turns` clamped to 1..=MAX_TURNS (a fraction rounds down, anything unusable is 1). */
export function clampTurns(turns: number): number {
  return Number.isFinite(turns) ? Math.min(MAX_TURNS, Math.max(1, Math.floor(turns))) : 1;
}

/** A carried row of a page with where it starts. */
export interface PageRow {
  offset: number;
  frame: Frame;
}

/** A page with its rows' offsets: each turn's rows, then the endings it carries (forged). */
export interface RowPage {
  turns: { rows: PageRow[]; forged: Frame[] }[];
  cursor: string | null;
  cron_names?: Record<string, string>;
}

/**
 * The page of whole turns ending just above `before` (null: the newest turns), oldest first.
 * See the module note for the rule, the cursor and when the page is empty.
 */
export async function page(
  path: string,
  before: string | null,
  turns: number,
  o: PageOptions = {},
): Promise<Page> {
  const got = await pageRows(path, before, turns, o);
  const out: Page = {
    turns: got.turns.map((t) => ({
      key: null,
      messages: [...t.rows.map((r) => r.frame), ...t.forged],
    })),
    cursor: got.cursor,
  };
  if (got.cron_names) out.cron_names = got.cron_names;
  return out;
}

/** `page`, with every carried row's byte offset (a window seeded from it needs them). */
export async function pageRows(
  path: string,
  before: string | null,
  turns: number,
  o: PageOptions = {},
): Promise<RowPage> {
  using file = await TranscriptFile.open(path, o);
  if (!file) return { turns: [], cursor: null };
  let start = file.size;
  if (before !== null) {
    const offset = parseRowCursor(before);
    // The file's end names no row yet: everything above it is the file (a floor where the
    // session's own rows will start).
    const end = offset === file.size && offset > file.floor;
    if (offset === null || !(end || await file.isRowStart(offset))) {
      return { turns: [], cursor: null };
    }
    start = offset;
  }
  const got = await gather(file, start, clampTurns(turns), o.pageBytes ?? PAGE_BYTES);
  if (got.turns.length === 0) return { turns: [], cursor: null };
  const forged = await carryEndings(file, got.turns, start, o);
  const out: RowPage = {
    turns: got.turns.map((rows, t) => ({
      rows: rows.map((r) => ({ offset: r.offset, frame: r.frame })),
      forged: forged[t],
    })),
    cursor: got.above ? rowCursor(got.turns[0][0].offset) : null,
  };
  const names = cronNames(got.turns, o.cronName);
  if (names) out.cron_names = names;
  return out;
}

/** Reads turns backwards from `start`. Answers them oldest first, rows oldest first, and
 * whether a carried row sits above the oldest. */
async function gather(
  file: TranscriptFile,
  start: number,
  want: number,
  budget: number,
): Promise<{ turns: Row[][]; above: boolean }> {
  const closed: Row[][] = []; // newest first, each newest row first
  let cur: Row[] = [];
  let curBytes = 0;
  let bytes = 0; // of the closed turns
  let opened = false; // cur's prompt is read; only its preamble may still join it
  const waiting = new Set<string>(); // results in cur whose call is not read yet
  let above = false;
  for await (const line of file.backward(start)) {
    const frame = lineFrame(line.text);
    if (!frame) continue;
    const row = { offset: line.offset, frame, bytes: line.text.length };
    if (opened && !isPreamble(frame)) {
      closed.push(cur);
      bytes += curBytes;
      cur = [];
      curBytes = 0;
      opened = false;
      waiting.clear();
      if (closed.length >= want || bytes >= budget) {
        above = true;
        break;
      }
    }
    if (!opened && closed.length > 0 && bytes + curBytes + row.bytes > budget) {
      cur = []; // the older turn does not fit whole: it opens the next page
      above = true;
      break;
    }
    if (!opened && closed.length === 0 && cur.length > 0 && curBytes + row.bytes > budget) {
      if (waiting.size === 0 || curBytes > Math.max(budget * 4, HARD_BYTES)) {
        above = true; // the newest turn alone is over the bound: carry its newest rows
        break;
      }
    }
    cur.push(row);
    curBytes += row.bytes;
    for (const id of toolResultIds(frame)) waiting.add(id);
    for (const id of toolUseIds(frame)) waiting.delete(id);
    if (opensTurn(frame)) opened = true;
  }
  if (cur.length > 0) closed.push(cur);
  return { turns: closed.reverse().map((rows) => rows.reverse()), above };
}

/** The forged ending frames each turn carries (see the module note), by turn index. */
async function carryEndings(
  file: TranscriptFile,
  turns: Row[][],
  start: number,
  o: PageOptions,
): Promise<Frame[][]> {
  const forged: Frame[][] = turns.map(() => []);
  const callTurn = new Map<string, number>();
  turns.forEach((rows, t) => {
    for (const r of rows) for (const id of backgroundedCalls(r.frame)) callTurn.set(id, t);
  });
  const land = (e: TaskEnding, from: Frame, later: boolean, at: number) => {
    const t = callTurn.get(e.tool_use_id);
    if (t === undefined) return;
    callTurn.delete(e.tool_use_id);
    if (later || at > t) forged[t].push(endingFrame(e, from));
  };
  turns.forEach((rows, t) => {
    for (const r of rows) {
      const e = callTurn.size > 0 ? taskEnding(r.frame) : null;
      if (e) land(e, r.frame, false, t);
    }
  });
  if (callTurn.size === 0) return forged;
  // Past the page: rows before the next prompt still belong to the page's newest turn.
  let later = false;
  for await (const line of file.forward(start, o.forwardScanBytes ?? FORWARD_SCAN_BYTES)) {
    const frame = lineFrame(line.text);
    if (!frame) continue;
    if (opensTurn(frame)) later = true;
    const e = taskEnding(frame);
    if (e) land(e, frame, later, turns.length - 1);
    if (callTurn.size === 0) break;
  }
  return forged;
}

function cronNames(
  turns: Row[][],
  cronName: PageOptions["cronName"],
): Record<string, string> | undefined {
  if (!cronName) return undefined;
  const out: Record<string, string> = {};
  let any = false;
  for (const rows of turns) {
    for (const { frame } of rows) {
      if (frame.type !== "user" || typeof frame.uuid !== "string") continue;
      if (toolResultIds(frame).length > 0) continue;
      const name = cronName(frame.uuid);
      if (name !== undefined) {
        out[frame.uuid] = name;
        any = true;
      }
    }
  }
  return any ? out : undefined;
}

/**
 * The cursor of the carried row whose frame's uuid is `uuid` (for a queued prompt, its
 * `source_uuid`), searched backwards from the file's end within the read cap; null when the
 * file does not carry it.
 */
export async function cursorAtUuid(
  path: string,
  uuid: string,
  o: ReaderOptions = {},
): Promise<string | null> {
  const at = (await rowsAtUuids(path, [uuid], o)).get(uuid);
  return at === undefined ? null : rowCursor(at);
}

/**
 * The byte offsets of the carried rows whose uuids are `uuids`, searched backwards from the
 * file's end until every one is found or the read cap is reached (one pass for all of them).
 * This is where a walk below the window's floor begins: the rows of the window's oldest frames
 * that the CLI also writes down (the original forge's ANCHOR_CANDIDATES). A uuid not found is
 * absent.
 */
export async function rowsAtUuids(
  path: string,
  uuids: readonly string[],
  o: ReaderOptions = {},
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const wanted = new Set(uuids.filter((u) => u !== ""));
  if (wanted.size === 0) return found;
  using file = await TranscriptFile.open(path, o);
  if (!file) return found;
  for await (const line of file.backward()) {
    for (const uuid of wanted) {
      if (!line.text.includes(uuid)) continue;
      if (lineFrame(line.text)?.uuid !== uuid) continue;
      found.set(uuid, line.offset);
      wanted.delete(uuid);
    }
    if (wanted.size === 0) break;
  }
  return found;
}
