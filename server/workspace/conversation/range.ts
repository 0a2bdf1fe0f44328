/**
 * `seat_range` below the window. spec: `seat_frames` - "The range is answered from the seat's
 * own window while it holds the frames, and from the session's transcript below that: the
 * transcript's own newest rows cross, numbered to END at the range's end, because what a frame
 * was numbered is minted in memory and written down nowhere."
 *
 * The rows are the carried rows (`rows.ts`) just above `before` - the window's floor row, as a
 * cursor - or the file's newest when there is none, at most `to - from + 1` of them and at most
 * `maxRows` / `maxBytes`, the newest kept. The newest row is numbered `to` and each older one a
 * number lower, so a range the transcript holds fewer rows for starts above `from`: the client
 * resumes at `to` either way. No file, a cursor naming no row, or past the read cap: no rows.
 */
import { parseRowCursor } from "./cursor.ts";
import { type Frame, lineFrame } from "./rows.ts";
import { type ReaderOptions, TranscriptFile } from "./transcript_reader.ts";

/** A range answers at most this many rows. */
export const RANGE_MAX_ROWS = 5000;
/** ... and at most this much row text: 8 MiB. */
export const RANGE_MAX_BYTES = 8 << 20;

/** One numbered row: the caller wraps `msg` in the seat's `chat_appended` update. */
export interface RangeRow {
  seq: number;
  msg: Frame;
}

export interface RangeOptions extends ReaderOptions {
  /** The row the window's floor stands on, as a cursor; rows above it answer. */
  before?: string | null;
  maxRows?: number;
  maxBytes?: number;
}

/** The transcript's newest rows (above `o.before`) numbered to end at `to`, oldest first. */
export async function rangeFromTranscript(
  path: string,
  from: number,
  to: number,
  o: RangeOptions = {},
): Promise<RangeRow[]> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from) return [];
  const want = Math.min(to - from + 1, o.maxRows ?? RANGE_MAX_ROWS);
  const budget = o.maxBytes ?? RANGE_MAX_BYTES;
  using file = await TranscriptFile.open(path, o);
  if (!file) return [];
  let start = file.size;
  if (o.before != null) {
    const offset = parseRowCursor(o.before);
    const end = offset === file.size && offset > file.floor;
    if (offset === null || !(end || await file.isRowStart(offset))) return [];
    start = offset;
  }
  const newestFirst: Frame[] = [];
  let bytes = 0;
  for await (const line of file.backward(start)) {
    if (newestFirst.length >= want) break;
    const frame = lineFrame(line.text);
    if (!frame) continue;
    if (newestFirst.length > 0 && bytes + line.text.length > budget) break;
    bytes += line.text.length;
    newestFirst.push(frame);
  }
  const n = newestFirst.length;
  return newestFirst.reverse().map((msg, i) => ({ seq: to - (n - 1 - i), msg }));
}

/**
 * The carried rows starting at or after `from` (a row start: the file's size as a reader saw it
 * once), oldest first, to the end as it stands now, with their offsets: the rows written since.
 * At most `maxBytes` (RANGE_MAX_BYTES) of them are read. No file: none.
 */
export async function rowsSince(
  path: string,
  from: number,
  o: ReaderOptions & { maxBytes?: number } = {},
): Promise<{ offset: number; msg: Frame }[]> {
  using file = await TranscriptFile.open(path, o);
  if (!file || from >= file.size) return [];
  const out: { offset: number; msg: Frame }[] = [];
  for await (const line of file.forward(from, o.maxBytes ?? RANGE_MAX_BYTES)) {
    const msg = lineFrame(line.text);
    if (msg) out.push({ offset: line.offset, msg });
  }
  return out;
}
