/**
 * A terminal's server-side screen model: a headless xterm that trails the byte stream, so that
 * reading the PTY and relaying its bytes to viewers never waits for the parse.
 *
 * Why it trails: a profile of the terminal bench (a 7 MB `cat` to five socket viewers) showed
 * the parse - about 100 ms of CPU per 7 MB, as long as the PTY takes to deliver it - running in
 * xterm's 12 ms timer slices on the thread that reads the PTY, so the reader stalled and the
 * shell's writes blocked: viewers got 0.25-0.40x of a bare PTY read. So chunks are queued as
 * they are relayed, and the model parses them once the stream has been quiet for `quietMs`, or
 * at once when it trails by `parseAt` bytes (a flood longer than that shares the thread with
 * the parse), in xterm's own slices of about 12 ms.
 * While it trails by a flood (`FLOOD_BYTES`) the quiet must last `floodQuietMs`: on a busy
 * machine a flood pauses for 10 ms whenever the shell or this thread is descheduled (or a timer
 * fires before a read already waiting), and a parse begun there held the reader in 12 ms slices
 * mid-burst; at a flood's end the same parse held up the writes of its last chunks to the
 * viewers. The terminal bench's profile under load put 39% of forge's main thread during a burst
 * in xterm's parse, and forge's throughput against the bare relay swung from 0.5x to 1.5x.
 * Past `highWater` unparsed bytes `onPressure(true)` asks for the PTY to be paused, rather than
 * the model dropping data and repaints going wrong; below half of it `onPressure(false)`.
 *
 * Exactness (spec: terminal_view, "seq is the last sequence the repaint reflects"): a snapshot
 * is the serialized model at `parsedSeq`, and every chunk after it is still held, in order, for
 * `unparsedAfter`. A resize is queued in stream order, so the bytes written before it are parsed
 * at the old size as a client drawing the stream would; `exactNow` is false while one waits.
 */
import xt from "@xterm/headless";
import serialize from "@xterm/addon-serialize";
import { type Clock, MONOTONIC } from "../../server/clock.ts";

// The packages are CommonJS: a named import fails under Deno.
const { Terminal: Xterm } = xt;
const { SerializeAddon } = serialize;

/** One output chunk of a terminal, numbered. */
export interface OutputChunk {
  seq: number;
  bytes: Uint8Array;
  /** The kind-4 frame carrying it, built around `bytes` in their buffer (no copy). */
  frame: Uint8Array;
}

/** How the model is sized and how far it may trail. */
export interface ScreenModelOptions {
  cols: number;
  rows: number;
  /** Lines kept above the screen. */
  scrollback: number;
  /** Unparsed bytes past which the model parses even while output still flows. */
  parseAt: number;
  /** Unparsed bytes past which the PTY should wait (onPressure). */
  highWater: number;
  /** Quiet time after the last chunk before the model parses. */
  quietMs: number;
  /**
   * The quiet time instead while the model trails by a flood (`FLOOD_BYTES` or more); never
   * shorter than `quietMs`. Default `FLOOD_QUIET_MS`.
   */
  floodQuietMs?: number;
  /** The clock quiet is measured on; the machine's unless a test moves one by hand. */
  clock?: Clock;
  onTitle: (title: string) => void;
  onPressure: (over: boolean) => void;
}

type Queued = OutputChunk | { cols: number; rows: number };

/** Unparsed bytes that make a flood (a coalesced chunk's worth): quiet is `floodQuietMs` then. */
export const FLOOD_BYTES = 64 * 1024;
/**
 * The default `floodQuietMs`. At a load average of 15 on two cores, 100 ms still left part of a
 * burst's parse inside it (the model's CPU after the burst 99 ms against 132 ms at 300 ms).
 */
export const FLOOD_QUIET_MS = 250;

/** The screen model; see the module comment for when it parses. */
export class ScreenModel {
  #o: ScreenModelOptions;
  #term: InstanceType<typeof Xterm>;
  #serializer: InstanceType<typeof SerializeAddon>;
  /** Chunks and resizes not yet handed to xterm, in stream order. */
  #queue: Queued[] = [];
  /** Chunks pushed and not yet parsed (the one xterm holds first), in order. */
  #unparsed: OutputChunk[] = [];
  #unparsedBytes = 0;
  /** Resizes queued and not yet applied. */
  #resizes = 0;
  #parsedSeq = 0;
  #busy = false;
  #lastPush = 0;
  /** The quiet the last push asks for: `quietMs`, or `floodQuietMs` after a flood. */
  #quietFor = 0;
  #clock: Clock;
  #quietTimer: unknown;
  #quietDue = 0;
  #over = false;
  /** Items queued so far and items applied so far: a settle waits for the first to reach it. */
  #queued = 0;
  #applied = 0;
  #waiters: { until: number; resolve: () => void }[] = [];
  #disposed = false;

  constructor(options: ScreenModelOptions) {
    this.#o = options;
    this.#clock = options.clock ?? MONOTONIC;
    this.#term = new Xterm({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback,
      allowProposedApi: true,
    });
    this.#serializer = new SerializeAddon();
    this.#term.loadAddon(this.#serializer);
    this.#term.onTitleChange((title) => options.onTitle(title));
  }

  /** The model's size: that of the parsed state, which a snapshot is drawn at. */
  get cols(): number {
    return this.#term.cols;
  }
  get rows(): number {
    return this.#term.rows;
  }
  /** The last chunk the model has parsed; 0 before any. */
  get parsedSeq(): number {
    return this.#parsedSeq;
  }
  /** Bytes relayed but not yet parsed. */
  get unparsedBytes(): number {
    return this.#unparsedBytes;
  }

  /** Whether a snapshot now, followed by `unparsedAfter`, draws exactly: no resize is queued. */
  get exactNow(): boolean {
    return this.#resizes === 0;
  }

  /** Queues a chunk already relayed to viewers. */
  push(chunk: OutputChunk): void {
    this.#queue.push(chunk);
    this.#queued++;
    this.#unparsed.push(chunk);
    this.#unparsedBytes += chunk.bytes.length;
    this.#lastPush = this.#clock.now();
    this.#quietFor = this.#unparsedBytes >= FLOOD_BYTES
      ? Math.max(this.#o.quietMs, this.#o.floodQuietMs ?? FLOOD_QUIET_MS)
      : this.#o.quietMs;
    if (!this.#over && this.#unparsedBytes > this.#o.highWater) {
      this.#over = true;
      this.#o.onPressure(true);
    }
    this.#pump();
  }

  /** Queues a resize behind the bytes already pushed. */
  resize(cols: number, rows: number): void {
    this.#queue.push({ cols, rows });
    this.#queued++;
    this.#resizes++;
    this.#pump();
  }

  /** The serialized screen (scrollback tail, screen, modes, cursor) at `parsedSeq`. */
  serialize(scrollback: number): string {
    return this.#serializer.serialize({ scrollback });
  }

  /** The parsed model's last `lines` lines as plain text, trailing blank lines dropped. */
  text(lines: number): string {
    const buffer = this.#term.buffer.active;
    const out: string[] = [];
    for (let i = Math.max(0, buffer.length - lines); i < buffer.length; i++) {
      out.push(buffer.getLine(i)?.translateToString(true) ?? "");
    }
    return out.join("\n").replace(/\n+$/, "");
  }

  /** The chunks relayed after `seq` that the model has not parsed. */
  unparsedAfter(seq: number): OutputChunk[] {
    const i = this.#unparsed.findIndex((chunk) => seqAfter(chunk.seq, seq));
    return i < 0 ? [] : this.#unparsed.slice(i);
  }

  /** Resolves once everything queued before the call is applied; the model parses meanwhile. */
  settled(): Promise<void> {
    if (this.#applied === this.#queued || this.#disposed) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push({ until: this.#queued, resolve });
    this.#pump();
    return promise;
  }

  dispose(): void {
    this.#disposed = true;
    this.#clock.clear(this.#quietTimer);
    this.#term.dispose();
    this.#queue = [];
    this.#unparsed = [];
    this.#unparsedBytes = 0;
    for (const w of this.#waiters.splice(0)) w.resolve();
  }

  /** Hands xterm the next queued item when the model should parse now; else waits for quiet. */
  #pump(): void {
    while (!this.#busy && !this.#disposed && this.#queue.length > 0) {
      if (!this.#parseNow()) {
        this.#waitForQuiet();
        return;
      }
      const item = this.#queue.shift()!;
      if (!("seq" in item)) {
        this.#term.resize(item.cols, item.rows);
        this.#resizes--;
        this.#done();
        continue;
      }
      this.#busy = true;
      // xterm parses on a timer of its own; its callback follows the chunk's parse.
      this.#term.write(item.bytes, () => {
        if (this.#disposed) return;
        this.#busy = false;
        this.#unparsed.shift();
        this.#unparsedBytes -= item.bytes.length;
        this.#parsedSeq = item.seq;
        if (this.#over && this.#unparsedBytes < this.#o.highWater / 2) {
          this.#over = false;
          this.#o.onPressure(false);
        }
        this.#done();
        // Handed over inside xterm's callback, the next chunk is parsed in the same slice (xterm
        // yields every ~12 ms). A turn of the event loop between chunks (a message port) let
        // reads in sooner but took 3x as long to catch up (7 MB: ~500 ms against ~150 ms), each
        // chunk waiting on xterm's own timer again.
        this.#pump();
      });
    }
  }

  /**
   * Arms the quiet timer for the quiet the last chunk asks for. A timer already due sooner stays
   * (it looks again when it fires); one due later is moved up: the small chunk that ends a flood
   * (a prompt) is parsed after `quietMs`, not after the flood's quiet.
   */
  #waitForQuiet(): void {
    const due = this.#lastPush + this.#quietFor;
    if (this.#quietTimer !== undefined && this.#quietDue <= due) return;
    this.#clock.clear(this.#quietTimer);
    this.#quietDue = due;
    this.#quietTimer = this.#clock.set(() => {
      this.#quietTimer = undefined;
      this.#pump();
    }, Math.max(1, due - this.#clock.now()));
  }

  #parseNow(): boolean {
    return this.#waiters.length > 0 || this.#unparsedBytes >= this.#o.parseAt ||
      this.#clock.now() - this.#lastPush >= this.#quietFor;
  }

  #done(): void {
    this.#applied++;
    if (this.#waiters.length === 0) return;
    const ready = this.#waiters.filter((w) => w.until <= this.#applied);
    this.#waiters = this.#waiters.filter((w) => w.until > this.#applied);
    for (const w of ready) w.resolve();
  }
}

/** True when u32 sequence `a` comes after `b`, across the wrap (serial-number arithmetic). */
export function seqAfter(a: number, b: number): boolean {
  const diff = (a - b) >>> 0;
  return diff !== 0 && diff < 0x80000000;
}
