/**
 * Reading one session transcript (JSONL) into the API messages' token counts.
 * spec: Subjects > usage ("a scan of the session-JSONL pool").
 *
 * Only lines that contain the key `"usage"` can carry a message's tokens, so only those are
 * JSON-parsed; every other line is checked for the shape of one JSON object (`{` ... `}`),
 * which is what catches a torn write. A line failing either check is skipped and counted.
 */
import type { MessageTokens } from "./prices.ts";

/** One assistant line's API message, as counted. */
export interface UsageRecord extends MessageTokens {
  /** `message.id` + `requestId`: the same message repeated on several lines shares it. null
   * when either is missing, and then the line cannot be matched and counts on its own. */
  key: string | null;
  /** Epoch ms of the line's `timestamp`; NaN when absent or unreadable. */
  at: number;
  model: string;
  /** The session's working directory; "" when no line of the file named one. */
  cwd: string;
  /** The API's `request-id` the line carries (`requestId`): the gateway's ledger names the
   * account that answered it. null when absent. */
  requestId: string | null;
}

/** What one file yielded. */
export interface TranscriptRead {
  records: UsageRecord[];
  skipped: number;
}

// The CLI writes a placeholder assistant line with this model for errors it made up itself;
// it is not an API call and carries no tokens.
const SYNTHETIC_MODEL = "<synthetic>";
const USAGE = '"usage"';
// Reads land in a reused buffer and are decoded a slice at a time: strings this small live in
// V8's young generation, where a multi-megabyte string would take fresh pages every time.
const READ_BYTES = 1 << 20;
const DECODE_BYTES = 64 << 10;
const spare: Uint8Array[] = [];

/** Builds records from lines; strings that repeat (model, cwd) are shared through `intern`. */
export class TranscriptParser {
  readonly records: UsageRecord[] = [];
  skipped = 0;
  /** The working directory the latest line read named; a record takes it. */
  cwd = "";
  #carry = "";
  #carryUsage = false;
  readonly #intern: (s: string) => string;

  constructor(intern: (s: string) => string = (s) => s) {
    this.#intern = intern;
  }

  /** Feed the next piece of text; a line cut at the end waits for the next piece. Linear
   * in the text however long a line runs: a piece without a newline is only appended. */
  push(text: string): void {
    const first = text.indexOf("\n");
    if (first < 0) {
      this.#carryUsage ||= (this.#carry.slice(-USAGE.length + 1) + text).includes(USAGE);
      this.#carry += text;
      return;
    }
    if (this.#carry.length > 0) {
      const head = text.slice(0, first);
      const usage = this.#carryUsage ||
        (this.#carry.slice(-USAGE.length + 1) + head).includes(USAGE);
      const line = this.#carry + head;
      this.#carry = "";
      this.#carryUsage = false;
      this.#line(line, 0, line.length, usage);
    } else {
      this.#line(text, 0, first, text.lastIndexOf(USAGE, first) >= 0);
    }
    let pos = first + 1;
    let usageAt = text.indexOf(USAGE, pos);
    for (;;) {
      const nl = text.indexOf("\n", pos);
      if (nl < 0) break;
      if (usageAt >= 0 && usageAt < pos) usageAt = text.indexOf(USAGE, pos);
      this.#line(text, pos, nl, usageAt >= 0 && usageAt < nl);
      pos = nl + 1;
    }
    this.#carry = text.slice(pos);
    this.#carryUsage = text.indexOf(USAGE, pos) >= 0;
  }

  /** The text ended: a last line without a newline is read as a line. */
  end(): TranscriptRead {
    const s = this.#carry;
    this.#carry = "";
    if (s.length > 0) this.#line(s, 0, s.length, this.#carryUsage || s.includes(USAGE));
    this.#carryUsage = false;
    return { records: this.records, skipped: this.skipped };
  }

  /** One whole line (no newline) read by the exact parse: the byte reader's fallback. */
  line(s: string): void {
    this.#line(s, 0, s.length, s.includes(USAGE));
  }

  #line(s: string, start: number, end: number, hasUsage: boolean): void {
    if (!hasUsage) {
      if (!looksLikeObject(s, start, end)) this.skipped++;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(s.slice(start, end));
    } catch {
      // Counted: the report's skipped lines say how many did not parse.
      this.skipped++;
      return;
    }
    if (!isObject(value)) {
      this.skipped++;
      return;
    }
    if (typeof value.cwd === "string") this.cwd = this.#intern(value.cwd);
    if (value.type !== "assistant" || !isObject(value.message)) return;
    const message = value.message;
    const usage = message.usage;
    if (!isObject(usage)) return;
    const model = typeof message.model === "string" ? message.model : "unknown";
    if (model === SYNTHETIC_MODEL) return;
    const split = isObject(usage.cache_creation) ? usage.cache_creation : {};
    this.records.push({
      key: typeof message.id === "string" && typeof value.requestId === "string"
        ? `${message.id}:${value.requestId}`
        : null,
      at: typeof value.timestamp === "string" ? Date.parse(value.timestamp) : NaN,
      model: this.#intern(model),
      cwd: this.cwd,
      requestId: typeof value.requestId === "string" ? value.requestId : null,
      input: count(usage.input_tokens),
      output: count(usage.output_tokens),
      cache_creation: count(usage.cache_creation_input_tokens),
      cache_creation_1h: count(split.ephemeral_1h_input_tokens),
      cache_read: count(usage.cache_read_input_tokens),
      fast: usage.speed === "fast",
    });
  }
}

/** Read a transcript file in chunks (bounded memory however large the file). */
export async function readTranscript(
  path: string,
  intern?: (s: string) => string,
): Promise<TranscriptRead> {
  const parser = new TranscriptParser(intern);
  const decoder = new TextDecoder();
  const buf = spare.pop() ?? new Uint8Array(READ_BYTES);
  try {
    using file = await Deno.open(path, { read: true });
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      for (let off = 0; off < n; off += DECODE_BYTES) {
        const end = Math.min(n, off + DECODE_BYTES);
        parser.push(decoder.decode(buf.subarray(off, end), { stream: true }));
      }
    }
    parser.push(decoder.decode());
    return parser.end();
  } finally {
    spare.push(buf);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Blank lines are not lines; anything else must open with `{` and close with `}`. */
function looksLikeObject(s: string, start: number, end: number): boolean {
  while (start < end && isSpace(s.charCodeAt(start))) start++;
  while (end > start && isSpace(s.charCodeAt(end - 1))) end--;
  if (start === end) return true;
  return s.charCodeAt(start) === 0x7b && s.charCodeAt(end - 1) === 0x7d;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}
