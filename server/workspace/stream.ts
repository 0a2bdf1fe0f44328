import type { CliFrame, SessionUpdate, Slot, UpdateOf } from "../../protocol/mod.ts";
import { slotName, updateSlot } from "../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../clock.ts";
import { appendKind, foldRun, joinRun, type RunKeys } from "./stream_fold.ts";

/**
 * Who an update goes to beyond its subjects' routing: one connection alone (a take's news), the
 * answering connections its routing reaches (a secret only a client that answers for the person
 * may hold: `vault_rotated`, spec: Biometric unlock), or null for every connection it routes to.
 */
export type Audience = number | "answering" | null;

/** An update as it leaves the workspace: its place in its seat's sequence. spec: update {seq, span}. */
export interface NumberedUpdate {
  update: SessionUpdate;
  slot: Slot | null;
  /** The number the update was minted under; null for a keyless update. */
  seq: number | null;
  /** How many of the seat's numbers the frame stands for (1 unless a fold merged a run). */
  span: number;
  /** Who it is for beyond its routing ({@link Audience}); null for everyone it routes to. */
  only: Audience;
  /** Set on a held run published because another frame of its seat is published right after
   * it: the transport holds the run's frame for that one, so both leave in one write. */
  followed?: true;
}

/**
 * The original's flush timers: a held run flushes 16 ms after its last append, and never later
 * than 100 ms after its first.
 */
export const FLUSH_INTERVAL_MS = 16;
export const FLUSH_CEILING_MS = 100;

/** A run of token appends held for one seat, waiting for its flush. */
interface Run {
  slot: Slot;
  seq: number;
  first: UpdateOf<"chat_appended">;
  msgs: CliFrame[];
  keys: RunKeys;
  deadline: number;
  /** When its last append came, on the stream's clock. */
  last: number;
  timer: unknown;
}

/**
 * The workspace's update stream. Every frame emitted for a seat is numbered on that seat's own
 * counter when it is emitted, so a client that reads 5 then 7 knows one went missing. spec: What
 * a client receives.
 *
 * The batch: a token append (stream_fold.ts) is held rather than published, and a run of them on
 * one seat crosses as ONE frame - `seq` its oldest number, `span` the run's length - when the
 * run flushes: 16 ms after its last append, 100 ms after its first, when the seat emits anything
 * else (so its order holds), or on `flush()`. Nothing else is held: every other frame is
 * published at once, so only the token stream pays the batch's latency.
 */
export class UpdateStream {
  #next = new Map<string, number>();
  #listeners = new Set<(u: NumberedUpdate) => void>();
  #runs = new Map<string, Run>();

  constructor(
    private readonly timing = { intervalMs: FLUSH_INTERVAL_MS, ceilingMs: FLUSH_CEILING_MS },
    private readonly clock: Clock = MONOTONIC,
  ) {}

  /** The number the seat's next frame will carry (`header.seq`). */
  nextSeq(slot: Slot): number {
    return this.#next.get(slotName(slot)) ?? 0;
  }

  /**
   * Numbers one update and publishes it, or holds it when it is a token append (its listeners
   * then see it inside the run's folded frame). Returns the update's own number either way.
   * `only` narrows who hears it ({@link Audience}); such an update is never held.
   */
  emit(update: SessionUpdate, only: Audience = null): NumberedUpdate {
    const slot = updateSlot(update);
    if (!slot) return this.#publish({ update, slot, seq: null, span: 1, only });
    const name = slotName(slot);
    const seq = this.#next.get(name) ?? 0;
    this.#next.set(name, seq + 1);
    const numbered: NumberedUpdate = { update, slot, seq, span: 1, only };
    const append = update.name === "chat_appended" && only === null ? update : null;
    const msg = append?.fields.msg;
    const kind = msg ? appendKind(msg) : null;
    const run = this.#runs.get(name);
    if (append && msg && kind) {
      if (run && joinRun(run.keys, kind)) {
        run.msgs.push(msg);
        this.#arm(name, run);
        return numbered;
      }
      if (run) this.#flushRun(name, run);
      const keys: RunKeys = { delta: null, counter: null };
      joinRun(keys, kind);
      const fresh: Run = {
        slot,
        seq,
        first: append,
        msgs: [msg],
        keys,
        deadline: this.clock.now() + this.timing.ceilingMs,
        last: 0,
        timer: undefined,
      };
      this.#runs.set(name, fresh);
      this.#arm(name, fresh);
      return numbered;
    }
    if (run) this.#flushRun(name, run, true);
    this.#publish(numbered);
    return numbered;
  }

  /** Publishes the held run of one seat, or of every seat: before a snapshot is encoded (spec:
   * queued updates precede a snapshot) and at shutdown. */
  flush(slot?: Slot): void {
    if (slot) {
      const name = slotName(slot);
      const run = this.#runs.get(name);
      if (run) this.#flushRun(name, run);
      return;
    }
    for (const [name, run] of [...this.#runs]) this.#flushRun(name, run);
  }

  subscribe(fn: (u: NumberedUpdate) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /**
   * Notes an append. A run has at most one timer, set when the run starts and set again only when
   * it fires early (the run grew since). Clearing and setting a timer for every token cost the
   * server thread 2-8% of its time while turns streamed (fold_cost, 50 clients).
   */
  #arm(name: string, run: Run): void {
    run.last = this.clock.now();
    if (run.timer === undefined) this.#wake(name, run);
  }

  /** Sets the run's timer for when it is due: quiet for `intervalMs`, or at its ceiling. */
  #wake(name: string, run: Run): void {
    const due = Math.min(run.last + this.timing.intervalMs, run.deadline);
    run.timer = this.clock.set(() => {
      run.timer = undefined;
      if (this.#runs.get(name) !== run) return;
      const now = this.clock.now();
      if (now < Math.min(run.last + this.timing.intervalMs, run.deadline)) this.#wake(name, run);
      else this.#flushRun(name, run);
    }, Math.max(0, due - this.clock.now()));
  }

  #flushRun(name: string, run: Run, followed = false): void {
    if (run.timer !== undefined) this.clock.clear(run.timer);
    this.#runs.delete(name);
    const update: SessionUpdate = run.msgs.length === 1
      ? run.first
      : { name: run.first.name, fields: { ...run.first.fields, msg: foldRun(run.msgs) } };
    this.#publish({
      update,
      slot: run.slot,
      seq: run.seq,
      span: run.msgs.length,
      only: null,
      ...(followed ? { followed } : {}),
    });
  }

  /** Where a listener that threw is told (the workspace logs it with the update's name). */
  onListenerError: (error: unknown, numbered: NumberedUpdate) => void = () => {};

  #publish(numbered: NumberedUpdate): NumberedUpdate {
    for (const fn of this.#listeners) {
      try {
        fn(numbered);
      } catch (error) {
        // One listener's failure never stops the stream reaching the others; it is told.
        this.onListenerError(error, numbered);
      }
    }
    return numbered;
  }
}
