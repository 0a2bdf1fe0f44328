import type { Slot, Wire } from "../../../../protocol/mod.ts";
import type { NumberedUpdate } from "../net/inbound.ts";
import type { Session } from "../net/narrow.ts";
import type { ReadUpdate } from "../net/updates.ts";
import { SeatRecord } from "./seat_record.ts";
import { type Turn, turnOf } from "./turns.ts";

export type { Turn } from "./turns.ts";

/** What `accept` decided about one numbered frame. */
export type Acceptance =
  | { kind: "applied" }
  | { kind: "duplicate" }
  /** Frames `from..=to` went missing: ask `seat_range`, hold what follows until it answers. */
  | { kind: "gap"; from: number; to: number };

type Held = { update: ReadUpdate; seq: number | null; span: number };

/**
 * One seat as the page holds it: the session snapshot's record (seat_record.ts), the
 * conversation walked so far, and where the seat's numbered stream stands. spec: session subject;
 * seat_range ("a client that reads 5 and then 7 knows exactly one frame went missing"); more.
 * Pure: the connection feeds it and sends what it asks for.
 */
export class SeatModel extends SeatRecord {
  /** The handle above the oldest turn held; null when the first row is held. */
  cursor: string | null = null;
  /** The occupant's session id: the epoch the numbers belong to. */
  epoch: string | null = null;
  /** The number the next frame carries; null before a snapshot or from a server without it. */
  nextSeq: number | null = null;
  /** Frames that arrived while a gap is being repaired, replayed in order after it. */
  held: Held[] = [];
  repairing: { from: number; to: number } | null = null;
  /** How many times a snapshot replaced what this page held (a new epoch, a new server run). */
  reseeds = 0;
  #pendingRecord: Session | null = null;

  constructor(slot: Slot) {
    super(slot);
  }

  get turns(): Turn[] {
    return this.book.turns;
  }

  /** Seeds from a session snapshot: replaces everything this page held. */
  seed(d: Session): void {
    if (this.epoch !== null || this.turns.length > 0) this.reseeds++;
    this.takeRecord(d);
    this.book.reset(d.conversation.turns.map(turnOf), d.header.turn_in_flight);
    this.cronNames = new Map(Object.entries(d.conversation.cron_names ?? {}));
    this.cursor = d.conversation.cursor;
    this.epoch = d.header.session_id;
    this.nextSeq = d.header.seq;
    this.held = [];
    this.repairing = null;
    this.#pendingRecord = null;
    this.version++;
  }

  /**
   * A snapshot of a seat this page already holds (a reconnect, a review read): the record is
   * taken, the conversation kept. When the stream moved on past what is held, the frames between
   * are the gap to ask `seat_range` for; another epoch, or a count that went backwards (a new
   * server run), seeds from the snapshot instead, so nothing is spliced across two streams.
   */
  rebase(d: Session): { from: number; to: number } | null {
    const seq = d.header.seq;
    if (d.header.session_id !== this.epoch || this.nextSeq === null || seq < this.nextSeq) {
      this.seed(d);
      return null;
    }
    if (seq === this.nextSeq) {
      this.takeRecord(d);
      this.version++;
      return null;
    }
    this.repairing = { from: this.nextSeq, to: seq - 1 };
    this.#pendingRecord = d;
    return this.repairing;
  }

  /**
   * One live `update` frame for this seat. `seq`/`span` are the frame's place in the seat's
   * sequence (spec: update {update, seq, span}); a frame below `nextSeq` is one this page already
   * holds, one above it means frames went missing.
   */
  accept(update: ReadUpdate, seq: number | null | undefined, span: number | undefined): Acceptance {
    const n = typeof seq === "number" ? seq : null;
    const width = span ?? 1;
    if (this.repairing) {
      this.held.push({ update, seq: n, span: width });
      return { kind: "applied" };
    }
    if (n !== null && this.nextSeq !== null && width > 0) {
      if (n + width <= this.nextSeq) return { kind: "duplicate" };
      if (n > this.nextSeq) {
        const gap = { from: this.nextSeq, to: n - 1 };
        this.repairing = gap;
        this.held.push({ update, seq: n, span: width });
        return { kind: "gap", ...gap };
      }
    }
    this.apply(update);
    if (n !== null && width > 0) this.nextSeq = n + width;
    return { kind: "applied" };
  }

  /**
   * The `seat_frames` answer: the missing frames, then whatever was held behind them. A frame
   * off its schema was said (client.ts) and is not drawn; the stream still moves past its number.
   */
  repaired(frames: NumberedUpdate[]): void {
    const gap = this.repairing;
    this.repairing = null;
    for (const { seq, update } of frames) {
      if (seq !== null && this.nextSeq !== null && seq < this.nextSeq) continue;
      this.apply(update);
      if (seq !== null) this.nextSeq = seq + 1;
    }
    // The transcript answers a range it no longer holds as its newest rows numbered to END at the
    // range's end: resume exactly where the stream continues (spec: seat_frames).
    if (gap) this.nextSeq = Math.max(this.nextSeq ?? 0, gap.to + 1);
    // The snapshot that found the gap is newer than the frames that filled it.
    if (this.#pendingRecord) this.takeRecord(this.#pendingRecord);
    this.#pendingRecord = null;
    const held = this.held;
    this.held = [];
    for (const h of held) {
      const next = this.nextSeq;
      if (h.seq !== null && next !== null && h.span > 0 && h.seq + h.span <= next) continue;
      this.apply(h.update);
      if (h.seq !== null && h.span > 0) this.nextSeq = h.seq + h.span;
    }
    this.version++;
  }

  /**
   * A `more` page: whole turns above the ones held, the handle above them, and the schedules
   * its fired prompts came from.
   */
  prepend(turns: Wire[], cursor: string | null, cronNames: Record<string, string> = {}): void {
    this.book.turns = [...turns.map(turnOf), ...this.book.turns];
    for (const [uuid, name] of Object.entries(cronNames)) this.cronNames.set(uuid, name);
    this.cursor = cursor;
    this.version++;
  }
}
