/**
 * The CLI's stdin. One malformed line kills the CLI (measured on CLI 2.1.332: "Error parsing
 * streaming input line", exit 1), so this writer only writes objects it serialises itself,
 * checked to be exactly one line; and callers never wait on the pipe: lines go into a queue
 * that a single loop drains in order.
 */
import type { JsonObject } from "./types.ts";

/**
 * Serialises one stdin line (without its `\n`). JSON.stringify escapes `\n` and `\r` but not
 * U+2028/U+2029, which some line splitters treat as line ends, so those are escaped too.
 * Throws when the value cannot be serialised as one JSON object line.
 */
export function encodeLine(obj: JsonObject): string {
  let line: string | undefined;
  try {
    line = JSON.stringify(obj);
  } catch (e) {
    throw new Error(`claude stdin: cannot serialise line: ${(e as Error).message}`);
  }
  if (typeof line !== "string" || !line.startsWith("{")) {
    throw new Error("claude stdin: a line must be a JSON object");
  }
  line = line.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  if (/[\n\r]/.test(line)) throw new Error("claude stdin: serialised line contains a line break");
  return line;
}

/** A non-blocking, ordered, line-validated writer over a byte stream. */
export class StdinWriter {
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #queue: Uint8Array[] = [];
  #loop: Promise<void> | null = null;
  #closing = false;
  #broken: string | null = null;
  #enc = new TextEncoder();

  constructor(stream: WritableStream<Uint8Array>) {
    this.#writer = stream.getWriter();
  }

  /** Why writing stopped (the pipe broke), or null. */
  get broken(): string | null {
    return this.#broken;
  }

  /** Whether `send` would still accept a line. */
  get open(): boolean {
    return !this.#closing && this.#broken === null;
  }

  /** Lines queued and not yet handed to the pipe. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Queues one line and returns at once. Throws if the object is not one valid line, or the
   * writer is closed or broken (nothing is written in either case). */
  send(obj: JsonObject): void {
    if (this.#broken !== null) throw new Error(`claude stdin is broken: ${this.#broken}`);
    if (this.#closing) throw new Error("claude stdin is closed");
    this.#queue.push(this.#enc.encode(encodeLine(obj) + "\n"));
    this.#loop ??= this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 && this.#broken === null) {
        const bytes = this.#queue.shift()!;
        await this.#writer.write(bytes);
      }
    } catch (e) {
      this.#broken = (e as Error).message || String(e);
      this.#queue.length = 0;
    } finally {
      this.#loop = null;
    }
  }

  /** Resolves once every queued line has been handed to the pipe (or the pipe broke). */
  async flushed(): Promise<void> {
    while (this.#loop) await this.#loop;
  }

  /** Writes what is queued, then closes the pipe (EOF for the CLI). Never throws. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.flushed();
    try {
      await this.#writer.close();
    } catch { /* already closed by the other side */ }
  }
}
