/**
 * Reading the CLI's stdout (one JSON object per line) and keeping the tail of its stderr.
 */
import { reusedReads } from "../../reused_reads.ts";
import { type CliFrame, isJsonObject } from "./types.ts";

/** One stdout line: a frame, or a line that is not a JSON object with a string `type`. */
export type NdjsonItem =
  | { kind: "frame"; frame: CliFrame }
  | { kind: "bad_line"; line: string; reason: string };

function parseLine(line: string): NdjsonItem {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { kind: "bad_line", line, reason: `not JSON: ${(e as Error).message}` };
  }
  if (!isJsonObject(value)) return { kind: "bad_line", line, reason: "not a JSON object" };
  if (typeof value.type !== "string") {
    return { kind: "bad_line", line, reason: "no string `type` field" };
  }
  return { kind: "frame", frame: value as CliFrame };
}

/**
 * Yields each non-empty line of `stream` parsed (a trailing `\r` is dropped). A bad line is
 * yielded as `bad_line` and reading goes on; a last line without `\n` is still yielded.
 * Aborting `signal` cancels the stream (the loop then throws the abort reason). The pipe is read
 * into one reused buffer (reused_reads.ts: Deno's default reader allocated 64 KiB a read, and the
 * CLI writes a streamed event a line).
 */
export async function* readNdjson(
  stream: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<NdjsonItem> {
  let pending = "";
  const decoder = new TextDecoder();
  for await (const bytes of reusedReads(stream, signal)) {
    const chunk = decoder.decode(bytes, { stream: true });
    let start = 0;
    let nl = chunk.indexOf("\n");
    while (nl >= 0) {
      const line = (pending + chunk.slice(start, nl)).replace(/\r$/, "");
      pending = "";
      if (line.trim()) yield parseLine(line);
      start = nl + 1;
      nl = chunk.indexOf("\n", start);
    }
    // Only the new chunk is searched, so a long line arriving in many chunks stays linear.
    pending += chunk.slice(start);
  }
  pending += decoder.decode();
  if (pending.trim()) yield parseLine(pending.replace(/\r$/, ""));
}

/** Keeps the last `maxBytes` bytes written to it (for stderr in failure reports). */
export class TailBuffer {
  #buf: Uint8Array;
  #len = 0;

  constructor(readonly maxBytes = 8192) {
    this.#buf = new Uint8Array(maxBytes);
  }

  /** Appends bytes, dropping the oldest beyond `maxBytes`. */
  push(bytes: Uint8Array): void {
    const max = this.maxBytes;
    if (bytes.length >= max) {
      this.#buf.set(bytes.subarray(bytes.length - max));
      this.#len = max;
      return;
    }
    const overflow = Math.max(0, this.#len + bytes.length - max);
    if (overflow > 0) {
      this.#buf.copyWithin(0, overflow, this.#len);
      this.#len -= overflow;
    }
    this.#buf.set(bytes, this.#len);
    this.#len += bytes.length;
  }

  /** The kept bytes as text (a character cut at the start shows as U+FFFD). */
  text(): string {
    return new TextDecoder().decode(this.#buf.subarray(0, this.#len));
  }

  /** Drains a stream into the buffer; resolves when the stream ends or fails. */
  async drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of reusedReads(stream)) this.push(chunk);
    } catch { /* the pipe broke: the process is gone, keep what we have */ }
  }
}
