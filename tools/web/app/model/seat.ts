import type { CliFrame, Slot, Wire } from "../../../../protocol/mod.ts";
import { decodeUpdate, type SessionUpdate } from "../../../../protocol/mod.ts";
import { isPrompt } from "./fold.ts";
import { applyAskUpdate, type Ask, asksFromSnapshot } from "./asks.ts";

/** One turn as a page holds it; `id` is this page's own, because a turn's `key` may be null. */
export interface Turn {
  id: number;
  messages: CliFrame[];
}

export interface QueuedPrompt {
  uuid: string;
  source: string;
  text: string;
}

type Obj = Record<string, Wire>;
const obj = (v: unknown): Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : {};

let turnIds = 0;
const turn = (messages: CliFrame[]): Turn => ({ id: ++turnIds, messages });

/** What `accept` decided about one numbered frame. */
export type Acceptance =
  | { kind: "applied" }
  | { kind: "duplicate" }
  /** Frames `from..=to` went missing: ask `seat_range`, hold what follows until it answers. */
  | { kind: "gap"; from: number; to: number };

/**
 * One seat as the page holds it: the session snapshot's record, the conversation walked so far,
 * the parked asks, the queue, and where the seat's numbered stream stands. spec: session subject;
 * seat_range ("a client that reads 5 and then 7 knows exactly one frame went missing"); more.
 * Pure: the connection feeds it and sends what it asks for.
 */
export class SeatModel {
  turns: Turn[] = [];
  /** The handle above the oldest turn held; null when the first row is held. */
  cursor: string | null = null;
  /** The occupant's session id: the epoch the numbers belong to. */
  epoch: string | null = null;
  /** The number the next frame carries; null before a snapshot or from a server without it. */
  nextSeq: number | null = null;
  record: Obj = {};
  header: Obj = {};
  asks: Ask[] = [];
  queue: QueuedPrompt[] = [];
  terminal: Obj | null = null;
  /** Frames that arrived while a gap is being repaired, replayed in order after it. */
  held: { update: SessionUpdate; seq: number | null; span: number }[] = [];
  repairing: { from: number; to: number } | null = null;
  /** Rises on every change, so a view can tell it must draw again. */
  version = 0;
  /** How many times a snapshot replaced what this page held (a new epoch, a new server run). */
  reseeds = 0;

  constructor(readonly slot: Slot) {}

  /** Seeds from a session snapshot: replaces everything this page held. */
  seed(data: Wire): void {
    const d = obj(data);
    if (this.epoch !== null || this.turns.length > 0) this.reseeds++;
    this.#takeRecord(d);
    const conversation = obj(d.conversation);
    const turns = Array.isArray(conversation.turns) ? conversation.turns : [];
    this.turns = turns.map((t) => turn((obj(t).messages ?? []) as CliFrame[]));
    this.cursor = typeof conversation.cursor === "string" ? conversation.cursor : null;
    this.epoch = typeof this.header.session_id === "string" ? this.header.session_id : null;
    this.nextSeq = typeof this.header.seq === "number" ? this.header.seq : null;
    this.held = [];
    this.repairing = null;
    this.#pendingRecord = null;
    this.#queuedPrompts.clear();
    this.version++;
  }

  /**
   * A snapshot of a seat this page already holds (a reconnect, a review read): the record is
   * taken, the conversation kept. When the stream moved on past what is held, the frames between
   * are the gap to ask `seat_range` for; another epoch, or a count that went backwards (a new
   * server run), seeds from the snapshot instead, so nothing is spliced across two streams.
   */
  rebase(data: Wire): { from: number; to: number } | null {
    const d = obj(data);
    const header = obj(d.header);
    const seq = header.seq;
    if (
      header.session_id !== this.epoch || typeof seq !== "number" ||
      this.nextSeq === null ||
      seq < this.nextSeq
    ) {
      this.seed(data);
      return null;
    }
    if (seq === this.nextSeq) {
      this.#takeRecord(d);
      this.version++;
      return null;
    }
    this.repairing = { from: this.nextSeq, to: seq - 1 };
    this.#pendingRecord = d;
    return this.repairing;
  }

  #pendingRecord: Obj | null = null;

  #takeRecord(d: Obj): void {
    this.record = d;
    this.header = obj(d.header);
    this.asks = asksFromSnapshot(d.pending_asks);
    this.queue = (Array.isArray(obj(d.state).queue) ? obj(d.state).queue : []) as never;
    this.terminal = d.terminal ? obj(d.terminal) : null;
  }

  /**
   * One live `update` frame for this seat. `seq`/`span` are the frame's place in the seat's
   * sequence (spec: update {update, seq, span}); a frame below `nextSeq` is one this page already
   * holds, one above it means frames went missing.
   */
  accept(
    raw: Wire,
    seq: number | null | undefined,
    span: number | undefined,
  ): Acceptance {
    const update = decodeUpdate(raw);
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
    this.#apply(update);
    if (n !== null && width > 0) this.nextSeq = n + width;
    return { kind: "applied" };
  }

  /** The `seat_frames` answer: the missing frames, then whatever was held behind them. */
  repaired(frames: Wire[]): void {
    const gap = this.repairing;
    this.repairing = null;
    for (const f of frames) {
      const frame = obj(f);
      const seq = typeof frame.seq === "number" ? frame.seq : null;
      if (seq !== null && this.nextSeq !== null && seq < this.nextSeq) continue;
      this.#apply(decodeUpdate(frame.update));
      if (seq !== null) this.nextSeq = seq + 1;
    }
    // The transcript answers a range it no longer holds as its newest rows numbered to END at the
    // range's end: resume exactly where the stream continues (spec: seat_frames).
    if (gap) this.nextSeq = Math.max(this.nextSeq ?? 0, gap.to + 1);
    // The snapshot that found the gap is newer than the frames that filled it.
    if (this.#pendingRecord) this.#takeRecord(this.#pendingRecord);
    this.#pendingRecord = null;
    const held = this.held;
    this.held = [];
    for (const h of held) {
      if (
        h.seq !== null && this.nextSeq !== null && h.span > 0 &&
        h.seq + h.span <= this.nextSeq
      ) {
        continue;
      }
      this.#apply(h.update);
      if (h.seq !== null && h.span > 0) this.nextSeq = h.seq + h.span;
    }
    this.version++;
  }

  /** A `more` page: whole turns above the ones held, and the handle above them. */
  prepend(turns: Wire[], cursor: string | null): void {
    this.turns = [
      ...turns.map((t) => turn((obj(t).messages ?? []) as CliFrame[])),
      ...this.turns,
    ];
    this.cursor = cursor;
    this.version++;
  }

  #apply(update: SessionUpdate): void {
    switch (update.name) {
      case "chat_appended":
        this.#chat(update.fields.msg);
        break;
      case "prompt_queued": {
        const { uuid, source, text } = update.fields;
        this.queue = [...this.queue, { uuid, source, text }];
        break;
      }
      case "prompt_lifecycle":
      case "prompt_cancel_resolved": {
        const f = update.fields;
        const gone = "state" in f ? f.state !== "queued" : f.cancelled;
        if (gone) this.queue = this.queue.filter((q) => q.uuid !== f.uuid);
        break;
      }
      case "turn_complete":
      case "turn_error":
      case "turn_cancelled":
        this.header = { ...this.header, turn_in_flight: false };
        break;
      case "context_usage_snapshot": {
        const { percentage, max_tokens } = update.fields;
        this.header = { ...this.header, context: { percent: percentage, max_tokens } };
        break;
      }
      case "processes_changed":
        this.record = { ...this.record, processes: update.fields.snapshot };
        break;
      case "terminal_changed":
        this.terminal = update.fields.terminal;
        break;
      default:
        this.asks = applyAskUpdate(this.asks, update);
    }
    this.version++;
  }

  /** Forged prompts the CLI has not started yet, by uuid (drawn in the composer's queue). */
  #queuedPrompts = new Map<string, CliFrame>();

  #open(frames: CliFrame[]): void {
    this.turns = [...this.turns, turn(frames)];
    this.header = { ...this.header, turn_in_flight: true };
  }

  #chat(frame: CliFrame): void {
    if (frame.type === "system" && frame.subtype === "init") {
      this.header = {
        ...this.header,
        model: frame.model ?? this.header.model,
        permission_mode: frame.permissionMode ?? this.header.permission_mode,
      };
    }
    if (frame.type === "result") this.header = { ...this.header, turn_in_flight: false };
    if (isPrompt(frame)) {
      // A prompt sent while a turn runs waits in the CLI's queue: its turn begins where the CLI
      // starts it (command_lifecycle `started` naming it), the server's own turn boundary
      // (spec: "where a turn BEGINS is a fact about the session").
      if (this.header.turn_in_flight === true && typeof frame.uuid === "string") {
        this.#queuedPrompts.set(frame.uuid, frame);
        return;
      }
      return this.#open([frame]);
    }
    const started = frame.type === "command_lifecycle" && frame.state === "started"
      ? this.#queuedPrompts.get(String(frame.command_uuid))
      : undefined;
    if (started) {
      this.#queuedPrompts.delete(String(frame.command_uuid));
      return this.#open([started, frame]);
    }
    if (this.turns.length === 0) return this.#open([frame]);
    const last = this.turns.at(-1)!;
    this.turns = [...this.turns.slice(0, -1), {
      id: last.id,
      messages: [...last.messages, frame],
    }];
  }
}
