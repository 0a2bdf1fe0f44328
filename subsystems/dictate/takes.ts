import {
  type DictateAxes,
  type DictateOutcome,
  type DictateSurface,
  type SessionUpdate,
  type Slot,
  slotName,
  takeUpdate,
} from "../../protocol/mod.ts";
import type { Logger } from "../../server/log.ts";
import type { Transcriber } from "./engines/engine.ts";
import { normalize } from "./normalize.ts";
import type { VadStream } from "./vad.ts";

/** The meter's floor: the level a client draws as an empty cell. spec: dictate_started.floor_db. */
export const FLOOR_DB = -60;
/** One level reading per this many 20 ms frames (100 ms): a meter, not a copy of the audio. */
const LEVEL_EVERY_FRAMES = 5;
const RATE = 16_000;

/** What the take book needs from its surroundings; a fake in unit tests, the Host in the server. */
export interface TakeDeps {
  /** Sends a take's update to the connection that owns it, and to nobody else. */
  emitTo(conn: number, update: SessionUpdate): void;
  /** The dictation engine in force, or the sentence why there is none. */
  engine(): Transcriber | { refusal: string };
  /** A fresh VAD stream for a take, or null when the VAD did not load. */
  vad(): VadStream | null;
  maxCaptureMinutes(): number;
  /** `[dictate] normalizer`: false lands the decoder's words untouched. */
  normalizer(): boolean;
  /** A take landed words: the composer keeps them until they are sent. */
  land(slot: Slot, text: string, surface: DictateSurface | null): void;
  log: Logger;
}

interface Take {
  conn: number;
  slot: Slot;
  generation: number;
  axes: DictateAxes;
  surface: DictateSurface | null;
  chunks: Int16Array[];
  samples: number;
  peak: number;
  windowPeak: number;
  frames: number;
  truncated: boolean;
  vad: VadStream | null;
  /** Set when its connection went away: nothing of it may land. */
  dropped: boolean;
}

/**
 * The live takes: at most one per seat and one per connection. A take registers synchronously as
 * its `dictate_stream` is dispatched, so the next frame on the same ordered connection finds it.
 * Every update about a take goes to its own connection alone; a dropped connection lands nothing.
 * spec: dictate_stream, "A take belongs to the connection that started it", dictate_stop.
 */
export class TakeBook {
  readonly #bySeat = new Map<string, Take>();
  readonly #byConn = new Map<number, Take>();
  readonly #decoding = new Set<Take>();
  #generation = 0;

  constructor(private readonly deps: TakeDeps) {}

  /** Refuses a take before it starts: a `dictate_ended` refused to that connection alone. */
  refuse(conn: number, slot: Slot, message: string): void {
    const generation = ++this.#generation;
    this.deps.emitTo(conn, takeUpdate.ended(slot, { refused: { message } }, generation));
  }

  /**
   * Starts a take (the client's capture, or forge's own for dictate_start); a refusal is the
   * take's own `dictate_ended`. True when the take is live.
   */
  stream(conn: number, slot: Slot, axes: DictateAxes, surface: DictateSurface | null): boolean {
    const generation = ++this.#generation;
    const mine = this.#byConn.get(conn);
    const live = this.#bySeat.get(slotName(slot));
    const engine = this.deps.engine();
    const refusal = mine
      ? `this connection is already streaming a take on ${slotName(mine.slot)}: stop it first`
      : live
      ? `${slotName(slot)} already has a live take from another connection`
      : "refusal" in engine
      ? engine.refusal
      : null;
    if (refusal) {
      this.deps.emitTo(conn, takeUpdate.ended(slot, { refused: { message: refusal } }, generation));
      return false;
    }
    const take: Take = {
      conn,
      slot,
      generation,
      axes,
      surface,
      chunks: [],
      samples: 0,
      peak: 0,
      windowPeak: 0,
      frames: 0,
      truncated: false,
      vad: this.deps.vad(),
      dropped: false,
    };
    this.#bySeat.set(slotName(slot), take);
    this.#byConn.set(conn, take);
    this.deps.emitTo(conn, takeUpdate.started(slot, FLOOR_DB, generation));
    return true;
  }

  /** Whether the connection has a take to feed (a frame without one is dropped by the caller). */
  has(conn: number): boolean {
    return this.#byConn.has(conn);
  }

  /** Feeds one frame's samples; false when the connection has no take. */
  frame(conn: number, samples: Int16Array): boolean {
    const take = this.#byConn.get(conn);
    if (!take) return false;
    const max = this.deps.maxCaptureMinutes() * 60 * RATE;
    let kept = samples;
    if (take.samples + samples.length > max) {
      // spec: [dictate] max_capture_minutes bounds a take; what is past it lands truncated.
      kept = samples.subarray(0, Math.max(0, max - take.samples));
      take.truncated = true;
    }
    if (kept.length > 0) {
      take.chunks.push(kept);
      take.samples += kept.length;
      take.vad?.feed(kept);
    }
    for (const s of kept) {
      const a = s < 0 ? -s : s;
      if (a > take.windowPeak) take.windowPeak = a;
    }
    if (take.windowPeak > take.peak) take.peak = take.windowPeak;
    if (++take.frames % LEVEL_EVERY_FRAMES === 0) {
      this.deps.emitTo(conn, takeUpdate.level(take.slot, peakDb(take.windowPeak)));
      take.windowPeak = 0;
    }
    return true;
  }

  /**
   * Ends the connection's take on `slot`: abandoned at once, or submitted to decode off the
   * event loop (the returned promise settles when the outcome is sent; the caller need not wait).
   * Throws a sentence when this connection has no take on that seat.
   */
  stop(conn: number, slot: Slot, submit: boolean): Promise<void> {
    const take = this.#byConn.get(conn);
    if (!take || slotName(take.slot) !== slotName(slot)) {
      throw new Error(`this connection has no live take on ${slotName(slot)}`);
    }
    this.#forget(take);
    if (!submit) {
      this.#end(take, "cancelled");
      return Promise.resolve();
    }
    this.deps.emitTo(conn, takeUpdate.transcribing(slot));
    this.#decoding.add(take);
    return this.#decode(take).finally(() => this.#decoding.delete(take));
  }

  /** The connection went away: its take is dropped, and nothing of it lands or is sent. */
  drop(conn: number): void {
    const take = this.#byConn.get(conn);
    if (take) this.#forget(take);
    for (const t of this.#decoding) if (t.conn === conn) t.dropped = true;
    if (take) take.dropped = true;
  }

  /** How many takes are capturing and decoding now (for the bench and tests). */
  counts(): { live: number; decoding: number } {
    return { live: this.#byConn.size, decoding: this.#decoding.size };
  }

  async #decode(take: Take): Promise<void> {
    const seconds = Math.round(take.samples / RATE);
    try {
      if (take.vad) await take.vad.settle();
      const heard = take.vad && !take.vad.failure
        ? take.vad.heardSpeech
        : (peakDb(take.peak) ?? -Infinity) > FLOOR_DB;
      if (take.samples === 0 || !heard) {
        return this.#end(take, { no_audio: { peak_db: peakDb(take.peak), seconds } });
      }
      const engine = this.deps.engine();
      if ("refusal" in engine) return this.#end(take, { refused: { message: engine.refusal } });
      this.#emit(take, takeUpdate.progress(take.slot, take.generation, 0, 1));
      const pcm = new Int16Array(take.samples);
      let at = 0;
      for (const c of take.chunks) {
        pcm.set(c, at);
        at += c.length;
      }
      take.chunks = [];
      const { text: words } = await engine.transcribe(pcm);
      this.#emit(take, takeUpdate.progress(take.slot, take.generation, 1, 1));
      const text = this.deps.normalizer() ? normalize(words, take.axes) : words.trim();
      if (text.length === 0) return this.#end(take, "empty");
      if (!take.dropped) this.deps.land(take.slot, text, take.surface);
      this.#end(take, { landed: { text, truncated: take.truncated } });
    } catch (err) {
      this.deps.log.warn("dictate_decode_failed", {
        seat: slotName(take.slot),
        generation: take.generation,
        error: err,
      });
      this.#end(take, "failed");
    }
  }

  #forget(take: Take): void {
    if (this.#byConn.get(take.conn) === take) this.#byConn.delete(take.conn);
    if (this.#bySeat.get(slotName(take.slot)) === take) this.#bySeat.delete(slotName(take.slot));
  }

  #emit(take: Take, update: SessionUpdate): void {
    if (!take.dropped) this.deps.emitTo(take.conn, update);
  }

  #end(take: Take, outcome: DictateOutcome): void {
    this.#emit(take, takeUpdate.ended(take.slot, outcome, take.generation));
  }
}

/**
 * A peak sample as dBFS to a tenth, or null for digital silence (−∞), as the original writes it.
 */
export function peakDb(peak: number): number | null {
  if (peak <= 0) return null;
  return Math.round(200 * Math.log10(peak / 32768)) / 10;
}
