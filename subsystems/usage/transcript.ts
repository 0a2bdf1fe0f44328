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
}

/** What one file yielded. */
export interface TranscriptRead {
  records: UsageRecord[];
  skipped: number;
}

// The CLI writes a placeholder assistant line with this model for errors it made up itself;
// it is not an API call and carries no tokens.
const SYNTHETIC_MODEL = "<synthetic>";
const CHUNK_BYTES = 4 << 20;

/** Builds records from lines; strings that repeat (model, cwd) are shared through `intern`. */
export class TranscriptParser {
  readonly records: UsageRecord[] = [];
  skipped = 0;
  #cwd = "";
  #carry = "";
  readonly #intern: (s: string) => string;

  constructor(intern: (s: string) => string = (s) => s) {
    this.#intern = intern;
  }

  /** Feed the next piece of text; a line cut at the end waits for the next piece. */
  push(text: string): void {
    const s = this.#carry + text;
    let pos = 0;
    let usageAt = s.indexOf('"usage"');
    for (;;) {
      const nl = s.indexOf("\n", pos);
      if (nl < 0) break;
      if (usageAt >= 0 && usageAt < pos) usageAt = s.indexOf('"usage"', pos);
      this.#line(s, pos, nl, usageAt >= 0 && usageAt < nl);
      pos = nl + 1;
    }
    this.#carry = s.slice(pos);
  }

  /** The text ended: a last line without a newline is read as a line. */
  end(): TranscriptRead {
    const s = this.#carry;
    this.#carry = "";
    if (s.length > 0) this.#line(s, 0, s.length, s.includes('"usage"'));
    return { records: this.records, skipped: this.skipped };
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
      this.skipped++;
      return;
    }
    if (!isObject(value)) {
      this.skipped++;
      return;
    }
    if (typeof value.cwd === "string") this.#cwd = this.#intern(value.cwd);
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
      cwd: this.#cwd,
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
  using file = await Deno.open(path, { read: true });
  const buf = new Uint8Array(CHUNK_BYTES);
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    parser.push(decoder.decode(buf.subarray(0, n), { stream: true }));
  }
  parser.push(decoder.decode());
  return parser.end();
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
