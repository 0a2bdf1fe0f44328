import {
  type ClientMessage,
  describeIssues,
  parseIgnoringUnknownFields,
  readUpdate,
  sameSlot,
  type SessionSnapshot,
  type Slot,
  snapshotSchema,
  type Subject,
  subjectKey,
} from "../../protocol/mod.ts";
import { ForgeRefusal, OffSchema } from "./errors.ts";
import type { Frame } from "./frames.ts";
import { type Numbered, SeatStream } from "./seat_stream.ts";
import { hears, type SnapshotOf } from "./subjects.ts";

/**
 * What a follow yields: the snapshot, then the subject's updates. A later snapshot is a `reread`:
 * after a refused range, or after a reconnect (`reconnected`) that could not join the seat's
 * numbers (another server run or occupant), or for a subject that carries none.
 */
export type FollowEvent<S extends Subject> =
  | { kind: "snapshot"; data: SnapshotOf<S>; reread: boolean; reconnected: boolean }
  | ({ kind: "update" } & Numbered);

/** What a follow needs of its client: a way out, every frame in, and the server run it reads. */
export interface Line {
  send(message: ClientMessage): void;
  listen(listener: Listener): () => void;
  readonly isOpen: boolean;
  /** Over for good (not merely redialling: an unsubscribe then lets the subscription go). */
  readonly isClosed: boolean;
  /** home's boot_id on this connection, when the client read it (a client that reconnects). */
  readonly bootId: string | null;
}

/** Hears every frame a client receives (`internal`: one the client asked for itself). */
export interface Listener {
  frame(frame: Frame, internal: boolean): void;
  ended(error: Error): void;
  /** The socket dropped; a redial is under way. */
  dropped?(): void;
  /** Whether it resumes a seat's numbers on a new socket (the client reads the run first). */
  readonly resumesSeat?: boolean;
}

/**
 * One subject followed: subscribes, yields its snapshot, then its updates in order. A seat's
 * stream is counted (`seq`, `span`): a gap is asked for with `seat_range` and filled before
 * anything after it is yielded, and a range forge refuses (another epoch) reads the seat again,
 * yielding a fresh snapshot marked `reread`. spec: subscribe; update {update, seq, span};
 * seat_range; seat_frames. Iterate it with `for await`, or `take(ms)` one event at a time;
 * `stop()` unsubscribes. Over a reconnect the client subscribes it again (subscriptions.ts): a
 * seat read on the same server run and occupant asks `seat_range` from the number it holds up to
 * the new snapshot's and yields no snapshot, so the updates go on with no gap and none twice;
 * anything else yields a fresh one.
 */
export class Following<S extends Subject> implements AsyncIterableIterator<FollowEvent<S>> {
  /** The ranges asked for with seat_range, in order. */
  readonly gaps: { from: number; to: number }[] = [];
  /** How many times the seat was read again (a refused range). */
  rereads = 0;
  /** How many reconnects the seat's numbers were joined across, with no snapshot yielded. */
  resumes = 0;
  #queue: FollowEvent<S>[] = [];
  #failure: Error | null = null;
  #stopped = false;
  #wake: (() => void) | null = null;
  #awaiting: "fresh" | "reread" | "reconnect" | null = "fresh";
  /** The server run the held numbers were minted in (null: not read). */
  #run: string | null = null;
  #stream = new SeatStream();
  #detach: () => void;
  readonly #slot: Slot | null;

  constructor(
    private readonly line: Line,
    readonly subject: S,
    private readonly answering = false,
  ) {
    this.#slot = typeof subject === "object" ? subject.session : null;
    this.#detach = line.listen(this);
    line.send({ kind: "subscribe", what: subject, answering });
  }

  /** The next event, waiting at most `ms` for it; throws what ended the follow. */
  async take(ms = 10_000): Promise<FollowEvent<S>> {
    if (this.#queue.length === 0 && !this.#over) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#wake = resolve;
      const timer = setTimeout(resolve, ms);
      await promise;
      clearTimeout(timer);
      this.#wake = null;
    }
    const event = this.#queue.shift();
    if (event) return event;
    if (this.#failure) throw this.#failure;
    if (this.#stopped) throw new Error(`the follow of ${subjectKey(this.subject)} was stopped`);
    throw new Error(`nothing from ${subjectKey(this.subject)} within ${ms} ms`);
  }

  async next(): Promise<IteratorResult<FollowEvent<S>>> {
    while (this.#queue.length === 0 && !this.#over) {
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    const event = this.#queue.shift();
    if (event) return { value: event, done: false };
    if (this.#failure) throw this.#failure;
    return { value: undefined, done: true };
  }

  return(): Promise<IteratorResult<FollowEvent<S>>> {
    this.stop();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Unsubscribes (when the connection is still open) and ends the iteration. */
  stop(): void {
    if (this.#over) return;
    this.#stopped = true;
    this.#detach();
    // While redialling, the client lets the subscription go rather than restore it.
    if (!this.line.isClosed) this.line.send({ kind: "unsubscribe", what: this.subject });
    this.#wake?.();
  }

  /** Listener: every frame the client receives, in order. */
  frame(f: Frame): void {
    if (f.type !== "json" || this.#over) return;
    const m = f.data;
    if (m.kind === "snapshot" && this.#awaiting && subjectKey(m.subject as Subject) === this.#key) {
      this.#snapshot(m.data);
    } else if (m.kind === "update" && !this.#awaiting) this.#update(m);
    else if (m.kind === "seat_frames" && this.#mine(m.slot)) {
      const frames = (m.frames as { seq?: unknown; update?: unknown }[]).flatMap((r) => {
        const read = readUpdate(r.update);
        return read.ok
          ? [{ seq: typeof r.seq === "number" ? r.seq : null, update: read.update }]
          : [];
      });
      this.#deliver(this.#stream.repaired(frames));
    } else if (m.kind === "error") this.#error(m);
  }

  /** Listener: the connection ended. */
  ended(error: Error): void {
    this.#fail(error);
  }

  get resumesSeat(): boolean {
    return this.#slot !== null;
  }

  /**
   * Listener: the socket dropped. A first snapshot still owed stays a fresh one. On the next
   * socket the client asks again for every subscription held, this one's among them in its place
   * (subscriptions.ts): what answers it is read as this left it.
   */
  dropped(): void {
    if (this.#awaiting !== "fresh") this.#awaiting = "reconnect";
  }

  get #over(): boolean {
    return this.#stopped || this.#failure !== null;
  }

  get #key(): string {
    return subjectKey(this.subject);
  }

  #mine(slot: unknown): boolean {
    return this.#slot !== null && !!slot && sameSlot(slot as Slot, this.#slot);
  }

  #snapshot(raw: unknown): void {
    const read = parseIgnoringUnknownFields(snapshotSchema(this.subject), raw);
    if (!read.success) {
      return this.#fail(
        new OffSchema(
          `the ${this.#key} snapshot is off protocol/'s schema: ${describeIssues(read.error)}`,
        ),
      );
    }
    const data = read.data as SnapshotOf<S>;
    const awaiting = this.#awaiting;
    this.#awaiting = null;
    if (this.#slot) {
      const header = (data as SessionSnapshot).header;
      if (awaiting === "reconnect" && this.#resume(header)) return;
      this.#stream.seed(header.seq, header.session_id);
      this.#run = this.line.bootId;
    }
    this.#push({
      kind: "snapshot",
      data,
      reread: awaiting !== "fresh",
      reconnected: awaiting === "reconnect",
    });
  }

  /**
   * A seat read again on a new socket: when it is the same server run (spec: home > boot_id: a
   * seat's numbers restart with the run) and the same occupant (seat_range's epoch), what was
   * missed is asked for as one range and no snapshot is yielded. False: seed from the snapshot.
   */
  #resume(header: SessionSnapshot["header"]): boolean {
    const run = this.line.bootId;
    if (run === null || run !== this.#run || header.session_id !== this.#stream.epoch) return false;
    const gap = this.#stream.resume(header.seq);
    if (gap === "reseed") return false;
    this.resumes++;
    if (gap) this.#askRange(gap);
    return true;
  }

  #update(m: Record<string, unknown>): void {
    const read = readUpdate(m.update);
    if (!read.ok || !hears(this.subject, read.update)) return;
    const frame: Numbered = {
      update: read.update,
      seq: typeof m.seq === "number" ? m.seq : null,
      span: typeof m.span === "number" ? m.span : 1,
      repaired: false,
    };
    if (this.#slot) this.#deliver(this.#stream.accept(frame));
    else this.#push({ kind: "update", ...frame });
  }

  #deliver(step: { deliver: Numbered[]; gap: { from: number; to: number } | null }): void {
    for (const n of step.deliver) this.#push({ kind: "update", ...n });
    if (step.gap) this.#askRange(step.gap);
  }

  #askRange(gap: { from: number; to: number }): void {
    if (!this.#slot) return;
    this.gaps.push(gap);
    this.line.send({
      kind: "seat_range",
      slot: this.#slot,
      epoch: this.#stream.epoch ?? "",
      from: gap.from,
      to: gap.to,
    });
  }

  #error(m: Record<string, unknown>): void {
    const { what, why, seat } = m as { what: string; why: string; seat: Slot | null };
    const aboutMe = this.#slot ? this.#mine(seat) : why.startsWith(`${this.#key}: `);
    if (!aboutMe) return;
    if (what === "subscribe" && this.#awaiting) this.#fail(new ForgeRefusal(what, why, seat));
    else if (what === "seat_range" && this.#slot) {
      // spec: seat_range: "an error naming seat_range means read the seat again".
      this.#stream.abandon();
      this.#awaiting = "reread";
      this.rereads++;
      this.line.send({ kind: "subscribe", what: this.subject, answering: this.answering });
      this.line.send({ kind: "unsubscribe", what: this.subject });
    }
  }

  #push(event: FollowEvent<S>): void {
    this.#queue.push(event);
    this.#wake?.();
  }

  #fail(error: Error): void {
    if (this.#over) return;
    this.#failure = error;
    this.#detach();
    this.#wake?.();
  }
}
