import type { SessionUpdate } from "../../protocol/mod.ts";

/** One of a seat's updates in its place in the seat's numbered stream. */
export interface Numbered {
  update: SessionUpdate;
  /** The number the frame's oldest update was minted under; null off the stream. */
  seq: number | null;
  /** How many of the seat's numbers the frame stands for (a folded run of token appends: n). */
  span: number;
  /** Whether it came in a `seat_frames` answer rather than live. */
  repaired: boolean;
}

/** What one step of the stream hands on: updates in order, and a range to ask for, if any. */
export interface Step {
  deliver: Numbered[];
  gap: { from: number; to: number } | null;
}

/**
 * Where one seat's numbered stream stands and what to do with the next frame. spec: What a
 * client receives > update ("a client that reads 5 and then 7 knows exactly one frame went
 * missing and asks for it"), seat_range, seat_frames. A frame wholly below `next` is one already
 * held (dropped); one above it opens a gap: it and every frame after it wait until the range's
 * answer lands, then follow it in order. Pure: the caller sends the `seat_range` it is told to.
 */
export class SeatStream {
  /** The number the next frame carries; null before a snapshot or from a server without it. */
  next: number | null = null;
  /** The occupant's session id: the epoch the numbers belong to. */
  epoch: string | null = null;
  repairing: { from: number; to: number } | null = null;
  #held: Numbered[] = [];

  /** Starts from a snapshot's header: `seq` is where a fresh reader joins. */
  seed(seq: number | null, epoch: string | null): void {
    this.next = seq;
    this.epoch = epoch;
    this.repairing = null;
    this.#held = [];
  }

  /** One live frame. */
  accept(frame: Numbered): Step {
    if (this.repairing) {
      this.#held.push(frame);
      return { deliver: [], gap: null };
    }
    const { seq, span } = frame;
    if (seq !== null && this.next !== null && span > 0) {
      if (seq + span <= this.next) return { deliver: [], gap: null };
      if (seq > this.next) {
        this.repairing = { from: this.next, to: seq - 1 };
        this.#held.push(frame);
        return { deliver: [], gap: this.repairing };
      }
    }
    if (seq !== null && span > 0) this.next = seq + span;
    return { deliver: [frame], gap: null };
  }

  /**
   * The `seat_frames` answer to the range out: the missing frames, then what waited behind them.
   * A range the seat's window no longer held is answered from the transcript, numbered to END at
   * the range's end (spec: seat_frames), so the stream resumes exactly past it.
   */
  repaired(frames: { seq: number | null; update: SessionUpdate }[]): Step {
    const gap = this.repairing;
    if (!gap) return { deliver: [], gap: null };
    this.repairing = null;
    const deliver: Numbered[] = [];
    for (const { seq, update } of frames) {
      if (seq !== null && this.next !== null && seq < this.next) continue;
      deliver.push({ update, seq, span: 1, repaired: true });
      if (seq !== null) this.next = seq + 1;
    }
    this.next = Math.max(this.next ?? 0, gap.to + 1);
    const held = this.#held;
    this.#held = [];
    let next: Step["gap"] = null;
    for (const h of held) {
      const step = this.accept(h);
      deliver.push(...step.deliver);
      next ??= step.gap;
    }
    return { deliver, gap: next };
  }

  /**
   * The seat read again on a new connection to the same server run and occupant (a reconnect):
   * `seq` is where the stream stands now. Everything from `next` up to it is asked for as one range
   * (a range that was out on the old connection, and what waited behind it, are covered by it), so
   * the stream goes on with no gap and nothing twice. Answers the range to ask for, null when
   * nothing was missed, or "reseed" when the count went backwards and the numbers cannot be joined.
   */
  resume(seq: number): { from: number; to: number } | null | "reseed" {
    if (this.next === null || seq < this.next) return "reseed";
    this.#held = [];
    this.repairing = seq > this.next ? { from: this.next, to: seq - 1 } : null;
    return this.repairing;
  }

  /** The range was refused (another epoch, no session): what waited is the reread's to cover. */
  abandon(): void {
    this.repairing = null;
    this.#held = [];
  }
}
