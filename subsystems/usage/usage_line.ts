/**
 * The fast reading of one assistant line: only the parts that carry usage are JSON-parsed.
 *
 * An assistant line is `{<head>,"message":{<prefix>,"content":[...],...,"usage":{...},...},
 * <tail>}`, and the content array (the line's bulk: text, thinking, tool input) is never needed
 * for tokens. This finds the message and its usage with native string searches, parses the head,
 * the message's prefix, the usage object and the tail, and rebuilds the value the whole-line parse
 * would have given for every field the count reads. JSON escapes every `"` inside a string, so a
 * bare `"usage":{` or `"message":{` can only be a key; every shape this does not recognise
 * answers null, and the caller falls back to parsing the whole line, so the numbers are the exact
 * parse's (tests compare the two on real and generated pools). One difference is accepted and
 * documented: damage INSIDE the content array of an otherwise whole line is not seen here, where
 * the whole-line parse would skip that line.
 */

const USAGE_KEY = '"usage":{';
const MESSAGE_KEY = '"message":{';
const CONTENT_KEY = '"content":';

/** The value a whole-line `JSON.parse` gives, for the fields a usage count reads. */
export type LineValue = Record<string, unknown>;

/** Reads `s[start, end)` as one assistant line; null when its shape is not the expected one. */
export function fastLineValue(s: string, start: number, end: number): LineValue | null {
  const usageAt = s.lastIndexOf(USAGE_KEY, end - USAGE_KEY.length);
  if (usageAt < start) return null;
  const messageAt = s.indexOf(MESSAGE_KEY, start);
  if (messageAt < 0 || messageAt > usageAt) return null;
  // Two message keys: a nested object, or two records run together by a torn write.
  const again = s.indexOf(MESSAGE_KEY, messageAt + 1);
  if (again >= 0 && again < end) return null;
  const contentAt = s.indexOf(CONTENT_KEY, messageAt);
  if (contentAt < 0 || contentAt > usageAt) return null;

  const head = openObject(s, start, messageAt);
  const messageOpen = messageAt + MESSAGE_KEY.length - 1;
  const prefix = openObject(s, messageOpen, contentAt);
  const usageOpen = usageAt + USAGE_KEY.length - 1;
  const usageClose = closingBrace(s, usageOpen, end, 0);
  if (head === null || prefix === null || usageClose < 0) return null;
  // The usage object must sit directly in the message: the next unmatched `}` closes it.
  const messageClose = closingBrace(s, usageClose + 1, end, 1);
  if (messageClose < 0) return null;
  const tail = restObject(s, messageClose + 1, end);
  const usage = parse(s.slice(usageOpen, usageClose + 1));
  if (tail === null || usage === null) return null;
  return { ...head, message: { ...prefix, usage }, ...tail };
}

/** `{"a":1,"b":2,` up to `end` read as `{"a":1,"b":2}`; `{` alone is `{}`. */
function openObject(s: string, open: number, end: number): LineValue | null {
  let text = s.slice(open, end).trimEnd();
  if (text === "{") return {};
  if (!text.startsWith("{") || !text.endsWith(",")) return null;
  text = text.slice(0, -1) + "}";
  return parse(text);
}

/** What follows the message: `}` alone, or `,"k":v,...}` read as an object. */
function restObject(s: string, from: number, end: number): LineValue | null {
  const text = s.slice(from, end).trim();
  if (text === "}") return {};
  if (!text.startsWith(",")) return null;
  return parse("{" + text.slice(1));
}

function parse(text: string): LineValue | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v as LineValue : null;
  } catch {
    return null;
  }
}

/**
 * The index of the `}` that closes the object `depth` levels up from `from` (0: the object
 * opening AT `from`), skipping strings; -1 when the line ends first. Only the small usage object
 * and the message's last keys are walked here, never the content array.
 */
function closingBrace(s: string, from: number, end: number, depth: number): number {
  let inString = false;
  for (let i = from; i < end; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next char is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return c === 0x7d ? i : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}
