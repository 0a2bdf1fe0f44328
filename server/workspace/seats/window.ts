import type { CliFrame, SessionUpdate, Wire } from "../../../protocol/mod.ts";
import { appendKind, foldRun, joinRun, type RunKeys } from "../stream_fold.ts";

/** spec: session > conversation: "the held window's 64 MiB byte ceiling". */
export const WINDOW_CEILING_BYTES = 64 * 1024 * 1024;
/** catalogue 3.6 SUBSCRIBE_TURNS: the snapshot's page of newest turns. */
export const SUBSCRIBE_TURNS = 20;

/** One numbered update the seat emitted, as the window keeps it. */
export interface WindowEntry {
  seq: number;
  update: SessionUpdate;
  /** The CLI (or forged) frame when the update is a `chat_appended`, else null. */
  msg: CliFrame | null;
  bytes: number;
}

interface Turn {
  /** Index (absolute, see `#base`) of the turn's first chat frame. */
  start: number;
  /** The result's uuid once the turn ended: a live turn's name. spec: more > key. */
  key: string | null;
  ended: boolean;
}

/**
 * A seat's held frames for one occupant, oldest first, bounded by bytes: every update the seat
 * emitted with its number, and the turns its chat frames fall into. A turn ends at a `result`
 * (the trailing `command_lifecycle completed` stays with it); anything else after an ended turn
 * begins the next. Past the ceiling the oldest entries drop off the front, so a page can start
 * inside a turn. The conversation page (`newestTurns`) is what a pager reads; `seat_range` can
 * read `entries` by number.
 */
export class FrameWindow {
  #entries: WindowEntry[] = [];
  /** Array index of the oldest live entry: the front is dropped by moving this, then compacted. */
  #head = 0;
  /** Absolute index of the oldest live entry: entries dropped off the front are counted here. */
  #base = 0;
  #turns: Turn[] = [];
  #bytes = 0;
  #compactions = 0;
  /** The last page built, reused until the window moves (a subscribe of an idle seat is free). */
  #page: { version: number; turns: number; cap: number; page: Wire } | null = null;
  #version = 0;

  constructor(
    /** Whether history sits above this window (a resumed session): the page then has a cursor. */
    private readonly historyAbove = false,
    private readonly ceiling = WINDOW_CEILING_BYTES,
  ) {}

  get bytes(): number {
    return this.#bytes;
  }

  get compactionCount(): number {
    return this.#compactions;
  }

  /** Whether anything has dropped off the front. */
  get trimmed(): boolean {
    return this.#base > 0;
  }

  /** The live entries, oldest first. */
  entries(): readonly WindowEntry[] {
    return this.#head === 0 ? this.#entries : this.#entries.slice(this.#head);
  }

  get #size(): number {
    return this.#entries.length - this.#head;
  }

  /** Live entries in absolute range [from, to). */
  #slice(from: number, to: number): WindowEntry[] {
    return this.#entries.slice(from - this.#base + this.#head, to - this.#base + this.#head);
  }

  /** Records one numbered update. `bytes` is its encoded size when the caller knows it. */
  push(seq: number, update: SessionUpdate, bytes?: number): void {
    const msg = update.name === "chat_appended"
      ? (update.fields?.msg as CliFrame | undefined) ?? null
      : null;
    const size = bytes ?? JSON.stringify(update.fields ?? null).length;
    const index = this.#base + this.#size;
    this.#version++;
    this.#entries.push({ seq, update, msg, bytes: size });
    this.#bytes += size;
    if (msg) this.#place(msg, index);
    while (this.#bytes > this.ceiling && this.#size > 1) this.#dropFront();
  }

  /**
   * The newest whole turns, oldest first, up to `turns` and within `capBytes` (the newest turn
   * always, however big): `{turns: [{key, messages}], compaction_count, cursor}`. Consecutive
   * token appends inside a turn fold into one frame carrying `folded_from` (the run's first
   * number) and `folded_frames` (its length), except a turn's leading run when the window's front
   * cut the turn (it is served as itself). `cursor` names the first frame of the page's oldest
   * turn, or null when nothing is above it.
   */
  newestTurns(turns = SUBSCRIBE_TURNS, capBytes = Infinity): Wire {
    const hit = this.#page;
    if (hit && hit.version === this.#version && hit.turns === turns && hit.cap === capBytes) {
      return hit.page;
    }
    const page = this.#build(turns, capBytes);
    this.#page = { version: this.#version, turns, cap: capBytes, page };
    return page;
  }

  #build(turns: number, capBytes: number): Wire {
    const out: { key: string | null; messages: Wire[] }[] = [];
    let bytes = 0;
    let oldestStart = -1;
    for (let t = this.#turns.length - 1; t >= 0 && out.length < turns; t--) {
      const turn = this.#turns[t];
      const end = t + 1 < this.#turns.length ? this.#turns[t + 1].start : this.#base + this.#size;
      const first = Math.max(turn.start, this.#base);
      const chats = this.#slice(first, end).filter((e) => e.msg);
      const size = chats.reduce((n, e) => n + e.bytes, 0);
      if (out.length > 0 && bytes + size > capBytes) break;
      bytes += size;
      out.unshift({ key: turn.key, messages: foldTurn(chats, turn.start < this.#base) });
      oldestStart = first;
    }
    const nothingAbove = !this.historyAbove && this.#base === 0 &&
      (oldestStart < 0 || this.#turns[0]?.start === oldestStart);
    const cursorEntry = oldestStart >= 0 ? this.#slice(oldestStart, oldestStart + 1)[0] : undefined;
    return {
      turns: out,
      compaction_count: this.#compactions,
      cursor: nothingAbove || !cursorEntry ? null : String(cursorEntry.seq),
    };
  }

  #place(msg: CliFrame, index: number): void {
    if (msg.type === "system" && msg.subtype === "compact_boundary") this.#compactions++;
    const open = this.#turns.at(-1);
    if (open && !open.ended) {
      if (msg.type === "result") {
        open.ended = true;
        open.key = typeof msg.uuid === "string" ? msg.uuid : null;
      }
      return;
    }
    if (open && msg.type === "command_lifecycle" && msg.state === "completed") return;
    const turn: Turn = { start: index, key: null, ended: msg.type === "result" };
    if (turn.ended) turn.key = typeof msg.uuid === "string" ? msg.uuid : null;
    this.#turns.push(turn);
  }

  #dropFront(): void {
    const gone = this.#entries[this.#head++];
    this.#bytes -= gone.bytes;
    this.#base++;
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
    // A turn whose every frame is gone is gone; one cut in the middle stays, starting below base.
    let goneTurns = 0;
    while (goneTurns + 1 < this.#turns.length && this.#turns[goneTurns + 1].start <= this.#base) {
      goneTurns++;
    }
    if (goneTurns > 0) this.#turns = this.#turns.slice(goneTurns);
  }
}

/** A turn's frames as a page carries them: runs of token appends folded. */
function foldTurn(entries: WindowEntry[], cutAtFront: boolean): Wire[] {
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
    const kind = appendKind(entry.msg!);
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
