/**
 * The byte offsets where a connection's queued frames end, oldest first, with the time each was
 * queued: what the write bound needs to know when a frame's write started (spec: The socket >
 * Reaching it, "One frame write is bounded"). A ring of two typed arrays, so queuing a frame on
 * the send path allocates nothing and costs O(1); it grows by doubling when full.
 */
export class FrameEnds {
  #ends = new Float64Array(64);
  #times = new Float64Array(64);
  #head = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(end: number, queuedAt: number): void {
    if (this.#size === this.#ends.length) this.#grow();
    const i = (this.#head + this.#size) % this.#ends.length;
    this.#ends[i] = end;
    this.#times[i] = queuedAt;
    this.#size++;
  }

  /** The oldest frame's end offset and queue time, or null when none is queued. */
  peek(): { end: number; queuedAt: number } | null {
    if (this.#size === 0) return null;
    return { end: this.#ends[this.#head], queuedAt: this.#times[this.#head] };
  }

  /** Drops every frame that ends at or before `written`; the count dropped. */
  dropThrough(written: number): number {
    let n = 0;
    while (this.#size > 0 && this.#ends[this.#head] <= written) {
      this.#head = (this.#head + 1) % this.#ends.length;
      this.#size--;
      n++;
    }
    return n;
  }

  #grow(): void {
    const cap = this.#ends.length * 2;
    const ends = new Float64Array(cap);
    const times = new Float64Array(cap);
    for (let k = 0; k < this.#size; k++) {
      const i = (this.#head + k) % this.#ends.length;
      ends[k] = this.#ends[i];
      times[k] = this.#times[i];
    }
    this.#ends = ends;
    this.#times = times;
    this.#head = 0;
  }
}
