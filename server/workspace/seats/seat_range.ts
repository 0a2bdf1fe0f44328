import {
  type CliFrame,
  encodeUpdate,
  type RangeFrame,
  type SessionUpdate,
} from "../../../protocol/mod.ts";
import {
  RANGE_MAX_BYTES,
  RANGE_MAX_ROWS,
  rangeFromTranscript,
  rowCursor,
} from "../conversation/mod.ts";
import type { FrameWindow } from "./window.ts";

/** One numbered frame of a `seat_frames` answer (protocol/'s RangeFrame). */
export type { RangeFrame };

/** What a range below the window reads: the occupant's transcript and where its frames begin. */
export interface RangeBelow {
  transcript: string | null;
  /** The transcript offset the window's numbered frames begin at; null when it is not found. */
  liveStart(): Promise<number | null>;
  /** A transcript row as the update it was sent as (capped as live ones were). */
  wrap(msg: CliFrame): SessionUpdate;
}

/**
 * `seat_range` for numbers the caller checked (this occupant's, already minted): the window's
 * entries while it holds the numbers, and below its oldest the transcript's rows just above
 * where the window's numbered frames begin, numbered to end where the window takes over
 * (spec: seat_frames). At most RANGE_MAX_ROWS frames and about RANGE_MAX_BYTES, the newest
 * kept: a client resumes where the answer ends either way.
 */
export async function rangeFrames(
  window: FrameWindow,
  from: number,
  to: number,
  below: RangeBelow,
): Promise<RangeFrame[]> {
  const held = window.bySeq(from, to);
  let bytes = 0;
  let keep = held.length;
  while (keep > 0 && held.length - keep < RANGE_MAX_ROWS) {
    if (keep < held.length && bytes + held[keep - 1].bytes > RANGE_MAX_BYTES) break;
    bytes += held[--keep].bytes;
  }
  const out: RangeFrame[] = held.slice(keep).map((e) => ({
    seq: e.seq!,
    update: encodeUpdate(e.update),
  }));
  const first = window.firstSeq();
  const rows = RANGE_MAX_ROWS - out.length;
  if (keep > 0 || rows <= 0 || (first !== null && from >= first)) return out;
  const start = await below.liveStart();
  if (start === null || !below.transcript) return out;
  const read = await rangeFromTranscript(
    below.transcript,
    from,
    first === null ? to : Math.min(to, first - 1),
    {
      before: rowCursor(start),
      maxRows: rows,
      maxBytes: Math.max(1, RANGE_MAX_BYTES - bytes),
    },
  );
  return [
    ...read.map((r) => ({ seq: r.seq, update: encodeUpdate(below.wrap(r.msg)) })),
    ...out,
  ];
}
