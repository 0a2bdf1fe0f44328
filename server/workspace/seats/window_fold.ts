import type { CliFrame, SessionUpdate, Wire } from "../../../protocol/mod.ts";
import { appendKind, foldRun, joinRun, type RunKeys } from "../stream_fold.ts";

/** One entry of the window: a numbered update the seat emitted, or a seeded transcript row. */
export interface WindowEntry {
  /** The seat's number for it; null for a row seeded from the transcript (never numbered). */
  seq: number | null;
  update: SessionUpdate;
  /** The CLI (or forged) frame when the update is a `chat_appended`, else null. */
  msg: CliFrame | null;
  bytes: number;
  /** A seeded row's byte offset in the transcript; null for a live frame or a forged one. */
  offset: number | null;
}

/**
 * A turn's frames as a page carries them (spec: session > conversation: "both paths fold a run
 * of consecutive token appends into ONE frame carrying the summed estimated_tokens_delta ... a
 * page by its turn, except a turn whose first carried frame is a counter (the window's front cut
 * inside a running turn, so its leading run is served as itself) - and a page's frame adds
 * folded_from and folded_frames").
 */
export function foldTurn(entries: WindowEntry[], cutAtFront: boolean): Wire[] {
  const out: Wire[] = [];
  let run: WindowEntry[] = [];
  let keys: RunKeys = { delta: null, counter: null };
  let leading = cutAtFront;
  const flush = () => {
    if (run.length === 1 || (leading && run.length > 0)) {
      for (const e of run) out.push(e.msg as Wire);
    } else if (run.length > 1) {
      const folded = foldRun(run.map((e) => e.msg!));
      out.push({ ...folded, folded_from: run[0].seq, folded_frames: run.length } as Wire);
    }
    run = [];
    keys = { delta: null, counter: null };
    leading = false;
  };
  for (const entry of entries) {
    // A seeded row is the transcript's and is never folded (a page keeps the CLI's several).
    const kind = entry.seq === null ? null : appendKind(entry.msg!);
    if (!kind) {
      flush();
      leading = false;
      out.push(entry.msg as Wire);
      continue;
    }
    if (run.length > 0 && !joinRun(keys, kind)) flush();
    if (run.length === 0) joinRun(keys, kind);
    run.push(entry);
  }
  flush();
  return out;
}
