import { gzip } from "node:zlib";
import { promisify } from "node:util";
import { encodeGzipFrame, type ServerMessage, type Slot } from "../protocol/mod.ts";
import { Subscriptions } from "./fanout.ts";
import type { Logger } from "./log.ts";
import type { Peer } from "./subsystem.ts";
import type { Timers } from "./timers.ts";

const gzipAsync = promisify(gzip);

/** spec: kind 3: a ServerMessage body of 64 KiB or more crosses gzipped when the client asked. */
export const DEFLATE_THRESHOLD = 64 * 1024;

interface QueuedFrame {
  /** Total bytes queued once this frame is. */
  end: number;
  queuedAt: number;
}

/**
 * One socket's transport: ordered sends (gzip off the JS thread, order kept), the write bound,
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
  #queued = 0;
  #frames: QueuedFrame[] = [];
  #lastCompletion = performance.now();
  #lastProgress = performance.now();
  #inFlight = 0;
  #outChain: Promise<void> | null = null;
  #outPending = 0;
  #sampler: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly id: number,
    private readonly socket: WebSocket,
    private readonly opts: { deflate: boolean; timers: Timers; log: Logger; peer: string },
  ) {
    this.#sampler = setInterval(() => this.#sample(), opts.timers.sampleMs);
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
   * Sends a message already serialized (the fan-out encodes a frame once for every connection).
   * `bytes` is the text's UTF-8 length.
   */
  sendEncoded(text: string, bytes: number): void {
    if (this.#ended) return;
    const big = this.opts.deflate && bytes >= DEFLATE_THRESHOLD;
    if (!big && this.#outChain === null) {
      this.#write(text, bytes);
      return;
    }
    this.#outPending++;
    const prior = this.#outChain ?? Promise.resolve();
    const next = prior.then(async () => {
      if (big) {
        const packed = encodeGzipFrame(new Uint8Array(await gzipAsync(text)));
        this.#write(packed, packed.length);
      } else this.#write(text, bytes);
    }).catch((err) => this.end("send_failed", err)).finally(() => {
      if (--this.#outPending === 0) this.#outChain = null;
    });
    this.#outChain = next;
  }

  sendBinary(bytes: Uint8Array): void {
    if (this.#ended) return;
    if (this.#outChain !== null) {
      this.#outPending++;
      this.#outChain = this.#outChain.then(() => this.#write(bytes, bytes.length)).finally(() => {
        if (--this.#outPending === 0) this.#outChain = null;
      });
    } else this.#write(bytes, bytes.length);
  }

  buffered(): number {
    return this.#ended ? 0 : this.socket.bufferedAmount;
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

  /** The one teardown path: every ending (close, error, bound, watchdog, shutdown) comes here. */
  end(reason: string, cause?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#sampler);
    try {
      if (
        this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING
      ) {
        this.socket.close(reason === "shutdown" ? 1001 : 1000, reason.slice(0, 100));
      }
    } catch {
      // Already closing: nothing more to do for the socket itself.
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

  #write(data: string | Uint8Array, bytes: number): void {
    if (this.#ended || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(data);
    this.#queued += bytes;
    this.#frames.push({ end: this.#queued, queuedAt: performance.now() });
    this.#settle();
  }

  /** Pops frames the socket has finished writing; each one is progress. */
  #settle(): void {
    const written = this.#queued - this.socket.bufferedAmount;
    const now = performance.now();
    while (this.#frames.length > 0 && this.#frames[0].end <= written) {
      this.#frames.shift();
      this.#lastCompletion = now;
      this.#lastProgress = now;
    }
  }

  #sample(): void {
    if (this.#ended) return;
    this.#settle();
    const now = performance.now();
    const { writeBoundMs, watchdogBounds } = this.opts.timers;
    const head = this.#frames[0];
    if (head) {
      // A frame's write starts when the one before it finished, not when it was queued.
      const started = Math.max(head.queuedAt, this.#lastCompletion);
      if (now - started > writeBoundMs) {
        this.end("write_bound", `one frame write took longer than ${writeBoundMs} ms`);
        return;
      }
    }
    const busy = this.#inFlight > 0 || this.#frames.length > 0 || this.#outPending > 0;
    if (busy && now - this.#lastProgress > watchdogBounds * writeBoundMs) {
      this.end("watchdog", `no progress for ${watchdogBounds} write bounds`);
    }
  }
}

/** UTF-8 byte length without encoding: what the socket will actually write. */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}
