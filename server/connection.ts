import { gzip } from "node:zlib";
import { promisify } from "node:util";
import {
  encodeGzipFrame,
  type ServerMessage,
  type Slot,
  type SnapshotOf,
  type Subject,
} from "../protocol/mod.ts";
import { encodeData, EncodedData, utf8Length } from "./encoded.ts";
import { Subscriptions } from "./fanout.ts";
import { FrameEnds } from "./frame_ends.ts";
import type { Logger } from "./log.ts";
import type { Transport } from "./socket.ts";
import type { Peer } from "./subsystem.ts";
import type { Timers } from "./timers.ts";

// node:zlib rather than fflate: 3-4x faster and smaller output. Its async form is used for order,
// not for the thread: on this Deno it holds the JS thread for its whole run, as gzipSync does
// (tools/bench/gzip.ts measures both).
const gzipAsync = promisify(gzip);

/** spec: kind 3: a ServerMessage body of 64 KiB or more crosses gzipped when the client asked. */
export const DEFLATE_THRESHOLD = 64 * 1024;

/**
 * One socket's transport: ordered sends (a kind-3 gzip keeps its place), the write bound,
 * the watchdog and the single teardown path. Message handling lives in `dispatch.ts`.
 * spec: The socket > Reaching it ("One frame write is bounded", "A connection whose own loop stops").
 */
export class Connection implements Peer {
  answering = false;
  /** Client messages refused on this connection; dispatch logs the first few, the end the count. */
  refusals = 0;
  showing: Slot | null = null;
  readonly subs = new Subscriptions();
  readonly #closers: (() => void)[] = [];
  #ended = false;
  /** Where each queued frame ends; settled on the sampler's beat, never on the send path. */
  readonly #frames = new FrameEnds();
  #lastCompletion = performance.now();
  #lastProgress = performance.now();
  #inFlight = 0;
  #outChain: Promise<void> | null = null;
  #outPending = 0;
  #sampler: ReturnType<typeof setInterval> | undefined;
  /** The keepalive's clock (see {@link #keepalive}). */
  #lastPing = performance.now();
  #ping: { after: number; deliveredAt: number | null } | null = null;
  /** Open snapshot holds, and the sends that wait for the last one to close (see {@link hold}). */
  #holds = 0;
  #held: (() => void)[] = [];

  constructor(
    readonly id: number,
    private readonly socket: Transport,
    private readonly opts: { deflate: boolean; timers: Timers; log: Logger; peer: string },
  ) {
    const every = Math.max(10, Math.min(opts.timers.sampleMs, opts.timers.pingDeadMs / 4));
    this.#sampler = setInterval(() => this.#sample(), every);
    socket.onInbound(() => {
      this.#ping = null; // any inbound frame, a pong included, answers the outstanding ping
    });
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Sends one server message: text, or a kind-3 gzip frame when large and the client asked. */
  send(message: ServerMessage): void {
    if (this.#ended) return;
    const text = JSON.stringify(message);
    this.sendEncoded(text, utf8Length(text));
  }

  /**
   * Sends a subject's snapshot; data a subject handler already encoded goes out as it is.
   * A snapshot passes an open hold: it is what the held frames wait behind.
   */
  sendSnapshot<S extends Subject>(
    subject: S,
    data: SnapshotOf<S> | EncodedData<SnapshotOf<S>>,
  ): void {
    if (this.#ended) return;
    const body = data instanceof EncodedData ? data : encodeData(data);
    const head = `{"kind":"snapshot","subject":${JSON.stringify(subject)},"data":`;
    this.#sendText(`${head}${body.text}}`, utf8Length(head) + body.bytes + 1);
  }

  /**
   * Reads a subject and sends its snapshot, every other send held meanwhile (`hold`): an update
   * emitted during the read follows the snapshot rather than arriving before one that may predate
   * it. A read that fails sends nothing and rejects as it did; what was held goes out.
   */
  async readAndSend<S extends Subject>(
    subject: S,
    read: () => Promise<SnapshotOf<S> | EncodedData<SnapshotOf<S>>>,
  ): Promise<void> {
    const release = this.hold();
    try {
      this.sendSnapshot(subject, await read());
    } finally {
      release();
    }
  }

  /**
   * Holds every other send until the returned release is called (holds nest; the last release
   * sends what waited, in order). spec: What a client sends > subscribe ("answered with a
   * snapshot"): a subscription opens before its subject is read, so nothing emitted during the
   * read is missed, and the hold keeps what was emitted behind the snapshot it follows. A frame
   * the snapshot already covers is one a client knows by its `seq` (the header's `seq` is where
   * a fresh reader joins).
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0) return;
      for (const send of this.#held.splice(0)) send();
    };
  }

  /**
   * Sends a message already serialized (the fan-out encodes a frame once for every connection).
   * `bytes` is the text's UTF-8 length; `more`: another frame follows at once (Transport.send).
   */
  sendEncoded(text: string, bytes: number, more = false): void {
    if (this.#ended) return;
    if (this.#holds > 0) this.#held.push(() => this.#sendText(text, bytes, more));
    else this.#sendText(text, bytes, more);
  }

  #sendText(text: string, bytes: number, more = false): void {
    if (this.#ended) return;
    const big = this.opts.deflate && bytes >= DEFLATE_THRESHOLD;
    if (!big && this.#outChain === null) {
      this.#write(text, more);
      return;
    }
    this.#outPending++;
    const prior = this.#outChain ?? Promise.resolve();
    const next = prior.then(async () => {
      if (big) this.#write(encodeGzipFrame(new Uint8Array(await gzipAsync(text))));
      else this.#write(text);
    }).catch((err) => this.end("send_failed", err)).finally(() => {
      if (--this.#outPending === 0) this.#outChain = null;
    });
    this.#outChain = next;
  }

  sendBinary(bytes: Uint8Array): void {
    if (this.#ended) return;
    if (this.#holds > 0) {
      this.#held.push(() => this.sendBinary(bytes));
      return;
    }
    if (this.#outChain !== null) {
      this.#outPending++;
      this.#outChain = this.#outChain.then(() => this.#write(bytes)).finally(() => {
        if (--this.#outPending === 0) this.#outChain = null;
      });
    } else this.#write(bytes);
  }

  buffered(): number {
    return this.#ended ? 0 : this.socket.bufferedAmount;
  }

  /** Whether the transport still takes frames (false once ended or closing). */
  get open(): boolean {
    return !this.#ended && this.socket.open;
  }

  onClose(fn: () => void): void {
    if (this.#ended) fn();
    else this.#closers.push(fn);
  }

  /** Brackets one inbound message's handling, for the watchdog's view of the loop. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await work();
    } finally {
      this.#inFlight--;
      this.#lastProgress = performance.now();
    }
  }

  /**
   * The one teardown path: every ending (close, error, bound, watchdog, keepalive, shutdown)
   * comes here. Only a shutdown closes politely (1001); every other ending aborts the transport
   * at once (a RST), because a peer that stopped reading would never take a close frame queued
   * behind its unread data and the socket, its fd and its buffers would stay.
   */
  end(reason: string, cause?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#held.length = 0;
    clearInterval(this.#sampler);
    try {
      if (reason === "shutdown") {
        if (this.socket.open) this.socket.close(1001, "shutdown");
      } else if (reason !== "closed") this.socket.abort();
    } catch {
      // Already gone: nothing more to do for the socket itself.
    }
    for (const fn of this.#closers.splice(0)) {
      try {
        fn();
      } catch (err) {
        this.opts.log.warn("connection_closer_failed", { conn: this.id, error: err });
      }
    }
    const level = reason === "closed" || reason === "shutdown" ? "debug" : "info";
    this.opts.log.log(level, "connection_ended", {
      conn: this.id,
      peer: this.opts.peer,
      reason,
      cause,
      ...(this.refusals > 0 ? { refused: this.refusals } : {}),
    });
  }

  /**
   * A frame ends where the transport's count of wire bytes stands once it is queued: its header
   * counted, as `bufferedAmount` counts it, or every frame still queued behind it would leave the
   * written count short and a frame would read as done only once nothing after it was left.
   */
  #write(data: string | Uint8Array, more = false): void {
    if (this.#ended || !this.socket.open) return;
    this.socket.send(data, more);
    this.#frames.push(this.socket.sentBytes, performance.now());
  }

  /**
   * Pops frames the socket has finished writing; each one is progress. Run on the sampler's beat
   * (no `bufferedAmount` read per send), so a completion is known to within a beat.
   */
  #settle(): void {
    if (this.#frames.size === 0) return;
    const written = this.socket.sentBytes - this.socket.bufferedAmount;
    if (this.#frames.dropThrough(written) > 0) {
      this.#lastCompletion = performance.now();
      this.#lastProgress = this.#lastCompletion;
    }
  }

  #sample(): void {
    if (this.#ended) return;
    this.#settle();
    const now = performance.now();
    const { writeBoundMs, watchdogBounds } = this.opts.timers;
    const head = this.#frames.peek();
    if (head) {
      // A frame's write starts when the one before it finished, not when it was queued.
      const started = Math.max(head.queuedAt, this.#lastCompletion);
      if (now - started > writeBoundMs) {
        this.end("write_bound", `one frame write took longer than ${writeBoundMs} ms`);
        return;
      }
    }
    const busy = this.#inFlight > 0 || this.#frames.size > 0 || this.#outPending > 0;
    if (busy && now - this.#lastProgress > watchdogBounds * writeBoundMs) {
      this.end("watchdog", `no progress for ${watchdogBounds} write bounds`);
      return;
    }
    this.#keepalive(now);
  }

  /**
   * spec: Reaching it ("The server pings every 15 seconds and ends a connection whose ping has
   * gone unanswered for 60"): a ping every quarter of the dead bound while none is outstanding;
   * any inbound frame answers it. The unanswered clock starts when the ping reached the wire,
   * not when it was queued: a ping queued behind a 3.5 MB frame a slow reader is still taking
   * cannot be answered before the frame is read, and that reader is the write bound's to judge.
   */
  #keepalive(now: number): void {
    const { pingDeadMs } = this.opts.timers;
    const ping = this.#ping;
    if (ping) {
      const written = this.socket.sentBytes - this.socket.bufferedAmount;
      if (ping.deliveredAt === null && written >= ping.after) {
        ping.deliveredAt = now;
      }
      if (ping.deliveredAt !== null && now - ping.deliveredAt >= pingDeadMs) {
        this.end("keepalive", `a ping unanswered for ${pingDeadMs} ms`);
      }
      return;
    }
    if (now - this.#lastPing < pingDeadMs / 4) return;
    this.#lastPing = now;
    this.#ping = { after: this.socket.sentBytes, deliveredAt: null };
    try {
      this.socket.ping();
    } catch (err) {
      this.end("send_failed", err);
    }
  }
}
