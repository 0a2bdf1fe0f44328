/**
 * The aria snapshot's lines read back (driver_ops.ts): passwords kept out of them, one element's
 * part cut out of the page's. Playwright's snapshot shows every `<input>`'s value, a password's
 * too, in one of three shapes its YAML renderer picks:
 *
 *     - textbox "Password" [ref=e5]: hunter2            the value ends the element's line
 *     - 'textbox "PIN: 4 digits" [ref=e6]': hunter2     ...after a key YAML had to quote
 *     - textbox "Password" [ref=e7]:                    ...or is a text line of its own (a
 *       - /placeholder: at least 8 characters           placeholder other than the name is
 *       - text: hunter2                                 a property line before it)
 *
 * The lines are read by the renderer's rules (a key is single-quoted when YAML needs it, a value
 * double-quoted). Pure text in, text out.
 */

/** One line of the snapshot, taken apart. */
interface Line {
  /** Everything up to and including `- `. */
  head: string;
  indent: number;
  /** The key as written (quoted or not) and as meant. */
  keyRaw: string;
  key: string;
  /** The role, or `text` for a text line, `/url` and the like for a property; null if neither. */
  role: string | null;
  /** The value after `: ` as written and as meant; null when the line has none. */
  valueRaw: string | null;
  value: string | null;
}

const ITEM = /^(\s*)- (.*)$/;

/** The key and what follows it: `'quoted key': value`, `key: value`, `key:` or `key`. */
function split(rest: string): { keyRaw: string; tail: string } {
  if (rest.startsWith("'")) {
    // A single-quoted key ends at a quote that is not doubled.
    for (let i = 1; i < rest.length; i++) {
      if (rest[i] !== "'") continue;
      if (rest[i + 1] === "'") {
        i++;
        continue;
      }
      return { keyRaw: rest.slice(0, i + 1), tail: rest.slice(i + 1) };
    }
    return { keyRaw: rest, tail: "" };
  }
  // An unquoted key holds no `: ` and does not end in `:` (YAML would have quoted it).
  const at = rest.indexOf(": ");
  if (at >= 0) return { keyRaw: rest.slice(0, at), tail: rest.slice(at) };
  if (rest.endsWith(":")) return { keyRaw: rest.slice(0, -1), tail: ":" };
  return { keyRaw: rest, tail: "" };
}

/** A YAML double-quoted scalar as Playwright writes one (JSON's escapes plus `\xNN`). */
function unquoteValue(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  try {
    return JSON.parse(raw.replace(/\\x([0-9a-fA-F]{2})/g, "\\u00$1"));
  } catch {
    // A value that is not quoted as Playwright quotes is shown as it stands.
    return raw;
  }
}

/** Takes one snapshot line apart; null for a line that is not a list item. */
export function parseLine(text: string): Line | null {
  const m = ITEM.exec(text);
  if (!m) return null;
  const { keyRaw, tail } = split(m[2]);
  const key = keyRaw.startsWith("'") ? keyRaw.slice(1, -1).replaceAll("''", "'") : keyRaw;
  const valueRaw = tail.startsWith(": ") ? tail.slice(2) : null;
  const role = /^(\/?[a-z]+)\b/.exec(key)?.[1] ?? null;
  return {
    head: `${m[1]}- `,
    indent: m[1].length,
    keyRaw,
    key,
    role,
    valueRaw,
    value: valueRaw === null ? null : unquoteValue(valueRaw),
  };
}

/** Whitespace as Playwright's snapshot prints a text: collapsed and trimmed, soft characters out. */
export function printed(text: string): string {
  return text.replace(/[\u200b\u00ad]/g, "").trim().replace(/\s+/g, " ");
}

/** What stands in for a password: its length only. */
export const maskedPassword = (secret: string) => `(a password, ${[...secret].length} characters)`;

/**
 * Whether any line could show a field's value. Playwright prints an `<input>`'s value as its
 * element's text whatever role the page gives it (a password field can be made a `button`), at
 * the end of the element's line or as a `- text:` line under it: a snapshot with no value on any
 * line (bar properties) cannot show a password, and the page is not asked.
 */
export function showsAnyValue(yaml: string): boolean {
  for (const text of yaml.split("\n")) {
    const l = parseLine(text);
    if (!l || (l.value !== null && !l.role?.startsWith("/"))) return true;
  }
  return false;
}

/**
 * The snapshot with every value that is one of `secrets` (as the snapshot prints it) shown as
 * its length instead - wherever it stands: the end of any line, quoted key or not, or a text
 * line. Property lines (`/placeholder`, `/url`) are the page's markup, not a field's value.
 */
export function maskSecrets(yaml: string, secrets: Iterable<string>): string {
  const byPrinted = new Map<string, string>();
  for (const s of secrets) if (printed(s)) byPrinted.set(printed(s), s);
  if (byPrinted.size === 0) return yaml;
  return yaml.split("\n").map((text) => {
    const l = parseLine(text);
    if (!l || l.value === null || l.role?.startsWith("/")) return text;
    const secret = byPrinted.get(printed(l.value));
    return secret === undefined ? text : `${l.head}${l.keyRaw}: ${maskedPassword(secret)}`;
  }).join("\n");
}

/** How long a secret must be before it is looked for inside longer text too. */
const CONTAINED_FROM = 4;

/**
 * The first line of a masked snapshot that still shows one of `secrets`, or null: the proof the
 * mask held. A line shows a secret when its value (or, for a line that is not a list item, the
 * line itself) is the secret as printed, or holds it inside - for a secret long enough that
 * finding it inside other text is not chance. Property lines count too.
 */
export function lineShowingSecret(yaml: string, secrets: Iterable<string>): number | null {
  const wanted = [...secrets].map(printed).filter((s) => s !== "");
  if (wanted.length === 0) return null;
  const lines = yaml.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const l = parseLine(lines[n]);
    const shown = l ? (l.value === null ? null : printed(l.value)) : printed(lines[n]);
    const raw = l ? l.valueRaw : lines[n];
    if (shown === null || raw === null) continue;
    const hit = wanted.some((s) =>
      shown === s || (s.length >= CONTAINED_FROM && (shown.includes(s) || raw.includes(s)))
    );
    if (hit) return n + 1;
  }
  return null;
}

/**
 * The part of a page's snapshot that is the element `ref` names, moved to the left margin: the
 * element's line and every line below it indented deeper. Null when no line carries the ref.
 */
export function subtreeOf(yaml: string, ref: string): string | null {
  const lines = yaml.split("\n");
  const mark = `[ref=${ref}]`;
  const at = lines.findIndex((text) => parseLine(text)?.key.includes(mark));
  if (at < 0) return null;
  const indent = parseLine(lines[at])!.indent;
  let end = at + 1;
  while (end < lines.length && (parseLine(lines[end])?.indent ?? Infinity) > indent) end++;
  return lines.slice(at, end).map((text) => text.slice(indent)).join("\n");
}
