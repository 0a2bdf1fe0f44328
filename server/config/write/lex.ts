/**
 * The writer's TOML lexer: finds where keys and values sit in the raw text (offsets), so an
 * edit can splice exactly the bytes it changes. It does not decode values (smol-toml does
 * that); it decodes keys, because edits locate items by key. It runs only on text that
 * smol-toml has already accepted, so it is lenient and throws only on a lexer bug.
 */

/** A half-open range of UTF-16 offsets into the text. */
export interface Span {
  start: number;
  end: number;
}

/** A value as written: its span, and for arrays and inline tables their parts. */
export interface ValueNode {
  shape: "scalar" | "string" | "array" | "inline_table";
  span: Span;
  /** Array elements, in order (empty unless `shape` is "array"). */
  items: ArrayItem[];
  /** Inline table entries, in order (empty unless `shape` is "inline_table"). */
  entries: InlineEntry[];
}

/** One array element and the offset of the comma after it, if it has one. */
export interface ArrayItem {
  value: ValueNode;
  comma: number | null;
}

/** One `key = value` inside an inline table, with the comma after it, if any. */
export interface InlineEntry {
  key: string[];
  keySpan: Span;
  value: ValueNode;
  comma: number | null;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

/** A cursor over one text; every method advances `pos` past what it read. */
export class Lexer {
  pos = 0;
  constructor(readonly text: string) {}

  /** Throws a lexer error naming the line, for text the parser accepted but we cannot read. */
  fail(what: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    throw new Error(`forge.toml writer: cannot read ${what} at line ${line}`);
  }

  at(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  /** Skips spaces and tabs. */
  skipWs(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos++;
  }

  /** Skips spaces, tabs, newlines and comments: the filler inside arrays and inline tables. */
  skipFiller(): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n") this.pos++;
      else if (ch === "#") this.toLineEnd();
      else return;
    }
  }

  /** Moves to the `\n` (or `\r\n`) ending this line, or to the end of the text. */
  toLineEnd(): void {
    const nl = this.text.indexOf("\n", this.pos);
    this.pos = nl < 0 ? this.text.length : nl;
    if (this.text[this.pos - 1] === "\r" && this.pos > 0) this.pos--;
  }

  /** Reads a dotted key (`a."b.c".'d'`) and returns its decoded parts. */
  key(): { parts: string[]; span: Span } {
    const start = this.pos;
    const parts: string[] = [];
    for (;;) {
      this.skipWs();
      const ch = this.text[this.pos];
      if (ch === '"') parts.push(this.basicKey());
      else if (ch === "'") {
        const close = this.text.indexOf("'", this.pos + 1);
        if (close < 0) this.fail("a quoted key");
        parts.push(this.text.slice(this.pos + 1, close));
        this.pos = close + 1;
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos, this.pos + 256));
        if (!m) this.fail("a key");
        parts.push(m[0]);
        this.pos += m[0].length;
      }
      const end = this.pos;
      this.skipWs();
      if (this.text[this.pos] !== ".") {
        this.pos = end;
        return { parts, span: { start, end } };
      }
      this.pos++;
    }
  }

  private basicKey(): string {
    let out = "";
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined || ch === "\n") this.fail("a quoted key");
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch !== "\\") {
        out += ch;
        this.pos++;
        continue;
      }
      const esc = this.text[this.pos + 1];
      const width = esc === "x" ? 2 : esc === "u" ? 4 : esc === "U" ? 8 : 0;
      if (width > 0) {
        const hex = this.text.slice(this.pos + 2, this.pos + 2 + width);
        out += String.fromCodePoint(parseInt(hex, 16));
        this.pos += 2 + width;
      } else {
        if (!(esc in SIMPLE_ESCAPES)) this.fail("an escape in a quoted key");
        out += SIMPLE_ESCAPES[esc];
        this.pos += 2;
      }
    }
  }

  /** Reads one value of any shape. */
  value(): ValueNode {
    const start = this.pos;
    const node = (shape: ValueNode["shape"]): ValueNode => ({
      shape,
      span: { start, end: this.pos },
      items: [],
      entries: [],
    });
    if (this.at('"""') || this.at("'''")) {
      const quote = this.text.slice(this.pos, this.pos + 3);
      this.pos += 3;
      for (;;) {
        if (this.pos >= this.text.length) this.fail("a multi-line string");
        if (quote === '"""' && this.text[this.pos] === "\\") this.pos += 2;
        else if (this.at(quote)) break;
        else this.pos++;
      }
      this.pos += 3;
      // A string may end with one or two quotes right before its closing delimiter.
      for (let extra = 0; extra < 2 && this.text[this.pos] === quote[0]; extra++) this.pos++;
      return node("string");
    }
    const ch = this.text[this.pos];
    if (ch === '"' || ch === "'") {
      this.pos++;
      while (this.text[this.pos] !== ch) {
        if (this.pos >= this.text.length || this.text[this.pos] === "\n") this.fail("a string");
        this.pos += ch === '"' && this.text[this.pos] === "\\" ? 2 : 1;
      }
      this.pos++;
      return node("string");
    }
    if (ch === "[") return this.array(start);
    if (ch === "{") return this.inlineTable(start);
    while (this.pos < this.text.length && !" \t\r\n,]}#".includes(this.text[this.pos])) this.pos++;
    // A date-time may separate its date and time with a space: 1979-05-27 07:32:00.
    if (
      /^\d{4}-\d{2}-\d{2}$/.test(this.text.slice(start, this.pos)) &&
      /^ \d{2}:/.test(this.text.slice(this.pos, this.pos + 4))
    ) {
      this.pos++;
      while (this.pos < this.text.length && !" \t\r\n,]}#".includes(this.text[this.pos])) {
        this.pos++;
      }
    }
    if (this.pos === start) this.fail("a value");
    return node("scalar");
  }

  private array(start: number): ValueNode {
    const items: ArrayItem[] = [];
    this.pos++;
    for (;;) {
      this.skipFiller();
      if (this.text[this.pos] === "]") break;
      const value = this.value();
      this.skipFiller();
      let comma: number | null = null;
      if (this.text[this.pos] === ",") comma = this.pos++;
      items.push({ value, comma });
      if (comma === null) {
        this.skipFiller();
        if (this.text[this.pos] !== "]") this.fail("an array");
        break;
      }
    }
    this.pos++;
    return { shape: "array", span: { start, end: this.pos }, items, entries: [] };
  }

  private inlineTable(start: number): ValueNode {
    const entries: InlineEntry[] = [];
    this.pos++;
    for (;;) {
      this.skipFiller();
      if (this.text[this.pos] === "}") break;
      const key = this.key();
      this.skipWs();
      if (this.text[this.pos] !== "=") this.fail("an inline table");
      this.pos++;
      this.skipWs();
      const value = this.value();
      this.skipFiller();
      let comma: number | null = null;
      if (this.text[this.pos] === ",") comma = this.pos++;
      entries.push({ key: key.parts, keySpan: key.span, value, comma });
      if (comma === null) {
        this.skipFiller();
        if (this.text[this.pos] !== "}") this.fail("an inline table");
        break;
      }
    }
    this.pos++;
    return { shape: "inline_table", span: { start, end: this.pos }, items: [], entries };
  }
}
