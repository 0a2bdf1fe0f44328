import type { Socket } from "node:net";

/** The TCP socket is handed no more frames while it holds this much. */
const WRITE_AHEAD_MAX = 256 * 1024;

/**
 * Frames waiting for a TCP socket to drain: while the socket holds `WRITE_AHEAD_MAX` or more,
 * a frame waits here, and the backlog is handed on in order as the socket drains.
 *
 * Why: the socket's stream gathers every write made while one is in flight into a single writev,
 * and counts it all buffered until the last byte of it is written. Ten 4 MB frames to a steady
 * reader read as one 40 MB write, no frame done until all were, and the write bound (spec:
 * Reaching it, "One frame write is bounded") cut a reader that took each frame well inside it.
 * Handing on at most one large frame at a time keeps `bufferedAmount` falling as each one leaves.
 */
export class WriteBacklog {
  /** Oldest at `#next`; a binary frame's body follows its head in the same write. */
  #frames: { head: Uint8Array; body: Uint8Array | null; bytes: number }[] = [];
  #next = 0;
  #bytes = 0;

  constructor(private readonly tcp: Socket) {
    // A stream emits "drain" once it has written all it held, after a write left it at or over
    // its high-water mark (64 KiB here), which WRITE_AHEAD_MAX is above: so always once a frame
    // has waited here.
    tcp.on("drain", () => this.#handOn(false));
  }

  /** Bytes waiting here, not yet handed to the socket. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Writes one frame (a text frame whole, or a binary frame's head and body), or queues it. */
  write(head: Uint8Array, body: Uint8Array | null): void {
    if (this.#next < this.#frames.length || this.tcp.writableLength >= WRITE_AHEAD_MAX) {
      const bytes = head.byteLength + (body?.byteLength ?? 0);
      this.#frames.push({ head, body, bytes });
      this.#bytes += bytes;
    } else this.#hand(head, body);
  }

  /** Hands every waiting frame to the socket now (before a close frame). */
  flush(): void {
    this.#handOn(true);
  }

  /** Drops what waits (the connection is being reset). */
  clear(): void {
    this.#frames = [];
    this.#next = 0;
    this.#bytes = 0;
  }

  #handOn(all: boolean): void {
    const frames = this.#frames;
    while (this.#next < frames.length && (all || this.tcp.writableLength < WRITE_AHEAD_MAX)) {
      const { head, body, bytes } = frames[this.#next++];
      this.#bytes -= bytes;
      this.#hand(head, body);
    }
    if (this.#next === frames.length) this.clear();
  }

  #hand(head: Uint8Array, body: Uint8Array | null): void {
    if (body === null) this.tcp.write(head);
    else {
      this.tcp.cork();
      this.tcp.write(head);
      this.tcp.write(body);
      this.tcp.uncork();
    }
  }
}
