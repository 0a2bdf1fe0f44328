import { gunzipSync } from "node:zlib";
import { BinaryKind } from "../../protocol/mod.ts";

/** One frame as the client received it: parsed JSON for text and kind-3 frames, raw bytes otherwise. */
export type Frame =
  | { type: "json"; data: Record<string, unknown>; compressed: boolean }
  | { type: "binary"; kind: number; bytes: Uint8Array };

/** Decodes one received WebSocket message into a Frame. */
export function decodeFrame(data: unknown): Frame {
  if (typeof data === "string") return { type: "json", data: JSON.parse(data), compressed: false };
  const bytes = new Uint8Array(data as ArrayBuffer);
  if (bytes[0] === BinaryKind.gzip_json) {
    const text = new TextDecoder().decode(gunzipSync(bytes.subarray(1)));
    return { type: "json", data: JSON.parse(text), compressed: true };
  }
  return { type: "binary", kind: bytes[0], bytes };
}

interface Waiter {
  pred: (f: Frame) => boolean;
  resolve: (f: Frame) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The frames a client received, in arrival order, and the waits on them. A wait takes the oldest
 * untaken frame that matches; the frames before it stay available, so a test can wait for a reply
 * and still read the update that arrived ahead of it. With `keep`, only the newest `keep` frames
 * are held (a long-running watcher stays bounded); a wait already out still gets its frame.
 */
export class FrameLog {
  readonly frames: Frame[] = [];
  /** How many frames fell off the front under `keep`. */
  dropped = 0;
  #taken = new Set<number>();
  /** Every frame below this absolute index is taken (or dropped). */
  #first = 0;
  #waiters: Waiter[] = [];
  #ended: (() => Error) | null = null;

  constructor(readonly keep = Infinity) {}

  /** Adds an arriving frame; `taken` records it without offering it to any wait. */
  push(frame: Frame, taken = false): void {
    const index = this.dropped + this.frames.length;
    this.frames.push(frame);
    if (taken) this.#take(index);
    else {
      const waiter = this.#waiters.find((w) => w.pred(frame));
      if (waiter) {
        this.#settle(waiter);
        waiter.resolve(this.#take(index));
      }
    }
    if (this.frames.length > this.keep) this.#dropFront(this.frames.length - this.keep);
  }

  /**
   * The oldest untaken frame matching `pred`, waiting up to `ms` for one. Once the log is ended,
   * a wait no held frame answers fails at once with the ending's error.
   */
  wait(pred: (f: Frame) => boolean, ms: number, tail: () => string): Promise<Frame> {
    for (let i = Math.max(this.#first, this.dropped); i < this.dropped + this.frames.length; i++) {
      if (!this.#taken.has(i) && pred(this.frames[i - this.dropped])) {
        return Promise.resolve(this.#take(i));
      }
    }
    if (this.#ended) return Promise.reject(this.#ended());
    const { promise, resolve, reject } = Promise.withResolvers<Frame>();
    const waiter: Waiter = { pred, resolve, reject, timer: undefined };
    waiter.timer = setTimeout(() => {
      this.#settle(waiter);
      reject(new Error(`no matching frame within ${ms} ms; last frames: ${tail()}`));
    }, ms);
    this.#waiters.push(waiter);
    return promise;
  }

  /** The connection is over: every wait out fails now with `error()`, and every later one too. */
  end(error: () => Error): void {
    this.#ended ??= error;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) {
      clearTimeout(w.timer);
      w.reject(error());
    }
  }

  /** How many waits are out (a test reads it: none is left behind). */
  get waiting(): number {
    return this.#waiters.length;
  }

  #settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
  }

  #take(index: number): Frame {
    this.#taken.add(index);
    while (this.#taken.has(this.#first)) this.#taken.delete(this.#first++);
    return this.frames[index - this.dropped];
  }

  #dropFront(n: number): void {
    this.frames.splice(0, n);
    this.dropped += n;
    for (const i of this.#taken) if (i < this.dropped) this.#taken.delete(i);
    this.#first = Math.max(this.#first, this.dropped);
  }
}
