/**
 * The conversation below the window: a session's JSONL transcript read by byte offset, folded
 * into turns and paged (spec: `more`, `page`, `seat_range`, `seat_frames`), independent of the
 * transport. The seats layer holds the window above; this answers everything under its floor.
 */
export { countCompactions } from "./compactions.ts";
export {
  decodeCursor,
  encodeCursor,
  parseRowCursor,
  rowCursor,
  type WireCursor,
} from "./cursor.ts";
export {
  clampTurns,
  cursorAtUuid,
  EMPTY_PAGE,
  FORWARD_SCAN_BYTES,
  MAX_TURNS,
  type Page,
  page,
  PAGE_BYTES,
  type PageOptions,
  type PageRow,
  pageRows,
  type PageTurn,
  type RowPage,
  rowsAtUuids,
} from "./pager.ts";
export {
  RANGE_MAX_BYTES,
  RANGE_MAX_ROWS,
  rangeFromTranscript,
  type RangeOptions,
  type RangeRow,
  rowsSince,
} from "./range.ts";
export { type Frame, lineFrame, rowFrame } from "./rows.ts";
export { opensTurn, type TaskEnding, taskEnding } from "./turns.ts";
export {
  CHUNK_BYTES,
  type Line,
  MAX_LINE_BYTES,
  READ_CAP_BYTES,
  type ReaderOptions,
  TranscriptFile,
} from "./transcript_reader.ts";
