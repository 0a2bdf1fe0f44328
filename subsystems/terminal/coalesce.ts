/**
 * Gathers a PTY's reads into chunks while output floods, and passes a read straight through
 * otherwise.
 *
 * Why: Linux hands a PTY's output over in reads of about 4 KiB, so a `cat` at ~70 MB/s is
 * ~1,700 reads per 7 MB, and the terminal bench's profile showed each read cost a kind-4 frame
 * and a socket write per viewer (five viewers: ~60 µs a read, as long as the PTY takes to fill
 * the next one) plus a message each client decodes. Held for at most `holdMs` (or `maxBytes`),
 * a flood leaves as ~64 KiB chunks: a fiftieth of the frames for the same bytes.
 *
 * A flood is told by its reads: a read follows a big one (a full PTY buffer) within `holdMs`.
 * A keystroke's echo or a prompt is a small read, and the read after it is passed on at once
 * too, so typing is never held (the bench's keystroke-to-echo arm).
 */
/** Defaults: a chunk is held at most 1 ms and leaves by 64 KiB; a read under 1 KiB is small. */
export const HOLD_MS = 1;
export const MAX_BYTES = 64 * 1024;
export const SMALL_BYTES = 1024;

/**
 * Coalesces reads; `emit` receives each chunk once, as a buffer it owns. `headroom`: each chunk
 * is a view that many bytes into a buffer of its own, those bytes free for a header, so a frame
 * around the chunk is written in place rather than copied out (the terminal's kind-4 header).
 */
export class ReadCoalescer {
  #pending: Uint8Array | null = null;
  #length = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastEmit = -Infinity;
  #lastEmitBytes = 0;

  constructor(
    private readonly emit: (bytes: Uint8Array) => void,
    private readonly holdMs = HOLD_MS,
    private readonly maxBytes = MAX_BYTES,
    private readonly headroom = 0,
  ) {}

  /** Takes one read; its buffer may be reused by the stream, so it is copied. */
  read(data: Uint8Array): void {
    const now = performance.now();
    const flooding = this.#lastEmitBytes >= SMALL_BYTES && now - this.#lastEmit < this.holdMs;
    if (this.#length === 0 && !flooding) {
      this.#lastEmit = now;
      this.#lastEmitBytes = data.length;
      this.emit(this.#own(data));
      return;
    }
    const room = this.headroom;
    if (!this.#pending || room + this.#length + data.length > this.#pending.length) {
      const grown = new Uint8Array(room + Math.max(this.maxBytes, this.#length + data.length));
      if (this.#pending) grown.set(this.#pending.subarray(room, room + this.#length), room);
      this.#pending = grown;
    }
    this.#pending.set(data, room + this.#length);
    this.#length += data.length;
    if (this.#length >= this.maxBytes) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), this.holdMs);
  }

  /**
   * Emits what is held now (before a resize, an exit or a settle). Nothing is held while a chunk
   * is being emitted (it was taken first), so a flush from inside `emit` finds nothing and the
   * chunks stay in order.
   */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#length === 0) return;
    // A short chunk gets a buffer of its own: the model may hold it for a while.
    const held = this.#pending!.subarray(this.headroom, this.headroom + this.#length);
    const bytes = this.#length < this.#pending!.length / 2 ? this.#own(held) : held;
    this.#pending = null;
    this.#length = 0;
    this.#lastEmit = performance.now();
    this.#lastEmitBytes = bytes.length;
    this.emit(bytes);
  }

  /** A copy of `data` in a buffer of its own, `headroom` bytes in. */
  #own(data: Uint8Array): Uint8Array {
    if (this.headroom === 0) return data.slice();
    const own = new Uint8Array(this.headroom + data.length);
    own.set(data, this.headroom);
    return own.subarray(this.headroom);
  }

  /** Drops what is held and stops the timer (the terminal is closed). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = null;
    this.#length = 0;
  }
}
