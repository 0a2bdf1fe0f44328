/**
 * `git diff --raw -z -p` output parsed as it arrives, chunk by chunk, so a layer's stats and its
 * `diff` row files are ready when git's last byte is: a record's parse runs while git still
 * writes instead of after it (spec: session table, `diff` row). The raw records (NUL-separated,
 * ended by an empty record) give each file's paths, status and modes; the patch sections that
 * follow come in the same order. A chunk may end anywhere - inside a raw record, between the
 * header's two NULs, mid-line or mid-character - and the result is the one the whole output
 * pushed at once gives.
 */
import { type DiffBudget, LineCutter, type ParsedFiles } from "./diff_parse.ts";
import { concat } from "./git.ts";
import { parseRawNumstat, type RawStat } from "./parse.ts";
import type { DiffFile, DiffLine } from "./wire.ts";

/** What a finished stream gives: every file's stats, and its carried files when asked for. */
export interface PatchResult {
  /** Per-file added/removed counts read off the patch (binary files count 0/0). */
  stats: RawStat[];
  /** The files carried under the budget given to the stream; null when none was given. */
  rows: ParsedFiles | null;
}

/** One `diff --git` section while its lines arrive. */
interface Section {
  header: string;
  /** Whether its owner is known: at its first `@` line, or at its end. */
  decided: boolean;
  /** A `new file mode` line came before any `@` line (a typechange's second half). */
  creation: boolean;
  /** A `Binary files` / `GIT binary patch` line came before the owner was known. */
  binary: boolean;
  /** The entry this section belongs to, -1 for none. */
  owner: number;
  inHunk: boolean;
  /** The owner's cutter refused a line: the rest of this section carries nothing. */
  cut: boolean;
  oldNo: number;
  newNo: number;
}

const dec = new TextDecoder();

/**
 * Feeds on one layer's output. `budget` (optional) is spent as the files are carried, file by
 * file in order, exactly as a parse of the whole output would spend it. A pushed chunk is kept
 * by reference until the stream ends: it must not change afterwards.
 */
export class PatchStream {
  #head: Uint8Array[] = [];
  #headNul = false;
  #entries: RawStat[] | null = null;
  #tail: Uint8Array[] = [];
  #tailBytes = 0;
  #section: Section | null = null;
  /** The next entry a section may belong to. */
  #next = 0;
  /** The entry at `#next - 1` took its first section and is a typechange awaiting its second. */
  #pendingTypechange = false;
  #added: number[] = [];
  #removed: number[] = [];
  #cutters: (LineCutter | null)[] = [];
  #rows: ParsedFiles | null;

  constructor(readonly budget: DiffBudget | null = null) {
    this.#rows = budget
      ? { files: [], total_files: 0, files_capped: false, bytes_capped: false }
      : null;
  }

  /** Take the next chunk of git's stdout. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.#entries === null) {
      const at = this.#headerEnd(chunk);
      if (at < 0 || at === chunk.length) return;
      chunk = chunk.subarray(at);
    }
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      this.#tail.push(chunk);
      this.#tailBytes += chunk.length;
      return;
    }
    let from = 0;
    if (this.#tailBytes) {
      // The line the last chunks left open closes here: joined once, when whole.
      const first = chunk.indexOf(10);
      const line = concat(
        [...this.#tail, chunk.subarray(0, first + 1)],
        this.#tailBytes + first + 1,
      );
      this.#tail = [];
      this.#tailBytes = 0;
      this.#region(line, 0, line.length);
      from = first + 1;
    }
    if (from <= last) this.#region(chunk, from, last + 1);
    if (last + 1 < chunk.length) {
      this.#tail.push(chunk.subarray(last + 1));
      this.#tailBytes = chunk.length - last - 1;
    }
  }

  /** The output has ended: the stats and (with a budget) the carried files. */
  end(): PatchResult {
    if (this.#entries === null) {
      // No empty record: the whole output is raw records.
      this.#startEntries(concat(this.#head, this.#headLength()));
    } else if (this.#tailBytes) {
      const line = concat(this.#tail, this.#tailBytes);
      this.#region(line, 0, line.length);
    }
    this.#close();
    const entries = this.#entries!;
    this.#openThrough(entries.length - 1);
    const stats = entries.map((e, i) => ({
      ...e,
      added: this.#added[i],
      removed: this.#removed[i],
    }));
    if (this.#rows) {
      this.#rows.total_files = entries.length;
      this.#rows.bytes_capped = this.#cutters.some((c) => c?.readCapped);
    }
    return { stats, rows: this.#rows };
  }

  #headLength(): number {
    return this.#head.reduce((n, c) => n + c.length, 0);
  }

  /**
   * Looks for the header's end (the first two NULs in a row) with this chunk: returns where the
   * patch starts in it, or -1 when the header goes on.
   */
  #headerEnd(chunk: Uint8Array): number {
    if (this.#headNul && chunk[0] === 0) {
      // The pair spans the chunks: the last chunk's final NUL was the first of it.
      const bytes = concat(this.#head, this.#headLength());
      this.#startEntries(bytes.subarray(0, bytes.length - 1));
      return 1;
    }
    for (let i = chunk.indexOf(0); i >= 0 && i + 1 < chunk.length; i = chunk.indexOf(0, i + 1)) {
      if (chunk[i + 1] === 0) {
        this.#startEntries(concat([...this.#head, chunk.subarray(0, i)], this.#headLength() + i));
        return i + 2;
      }
    }
    this.#head.push(chunk);
    this.#headNul = chunk[chunk.length - 1] === 0;
    return -1;
  }

  #startEntries(header: Uint8Array): void {
    this.#head = [];
    const entries = parseRawNumstat(dec.decode(header).split("\0"));
    this.#entries = entries;
    this.#added = entries.map(() => 0);
    this.#removed = entries.map(() => 0);
  }

  /**
   * Complete lines `[from, to)` of `bytes` (the last may lack its newline only at the end).
   * Their text is decoded once for the region when every byte decoded to exactly one UTF-16
   * unit (ASCII, or a lone invalid byte as U+FFFD, which a line's own decode gives too: no
   * invalid sequence spans a newline), so a byte offset is a character offset; else each line is
   * decoded alone. Measured: a decode per line was most of parsing a 200-file patch.
   */
  #region(bytes: Uint8Array, from: number, to: number): void {
    let whole: string | null | undefined;
    const str = (a: number, b: number) => {
      if (whole === undefined) {
        const t = dec.decode(bytes.subarray(from, to));
        whole = t.length === to - from ? t : null;
      }
      return whole === null ? dec.decode(bytes.subarray(a, b)) : whole.slice(a - from, b - from);
    };
    for (let at = from; at < to;) {
      let nl = bytes.indexOf(10, at);
      if (nl < 0 || nl > to) nl = to;
      this.#line(bytes, at, nl, str);
      at = nl + 1;
    }
  }

  #line(bytes: Uint8Array, at: number, nl: number, str: (a: number, b: number) => string): void {
    if (startsWith(bytes, at, nl, DIFF_GIT)) {
      this.#close();
      this.#section = {
        header: dec.decode(bytes.subarray(at, nl)),
        decided: false,
        creation: false,
        binary: false,
        owner: -1,
        inHunk: false,
        cut: false,
        oldNo: 0,
        newNo: 0,
      };
      return;
    }
    const s = this.#section;
    if (!s) return; // before the first section: nothing of any file
    const c = at < nl ? bytes[at] : -1;
    const binary = !s.inHunk &&
      (startsWith(bytes, at, nl, BINARY) || startsWith(bytes, at, nl, GIT_BINARY));
    if (!s.decided) {
      if (c !== 0x40) {
        if (startsWith(bytes, at, nl, NEW_FILE)) s.creation = true;
        if (binary) s.binary = true;
        return;
      }
      this.#decide(s);
    }
    const cutter = s.owner >= 0 ? this.#cutters[s.owner] : null;
    if (binary && cutter) cutter.file.binary = true;
    if (c === 0x40 && at + 1 < nl && bytes[at + 1] === 0x40) {
      s.inHunk = true;
      if (!cutter || s.cut) return;
      const header = str(at, nl);
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(header);
      s.oldNo = m ? Number(m[1]) : 0;
      s.newNo = m ? Number(m[2]) : 0;
      const hunk: DiffLine = { kind: "hunk", text: header, old_line: s.oldNo, new_line: s.newNo };
      if (!cutter.push(hunk, nl - at)) s.cut = true;
      return;
    }
    if (!s.inHunk || s.owner < 0) return;
    if (c === 0x2b) this.#added[s.owner]++;
    else if (c === 0x2d) this.#removed[s.owner]++;
    else if (c !== 0x20) return;
    if (!cutter || s.cut) return;
    const t = str(at + 1, nl);
    const line: DiffLine = c === 0x20
      ? { kind: "context", text: t, old_line: s.oldNo++, new_line: s.newNo++ }
      : c === 0x2b
      ? { kind: "added", text: t, old_line: null, new_line: s.newNo++ }
      : { kind: "removed", text: t, old_line: s.oldNo++, new_line: null };
    if (!cutter.push(line, nl - at - 1)) s.cut = true;
  }

  /** The section ended: one that never reached an `@` line finds its owner now. */
  #close(): void {
    const s = this.#section;
    if (s && !s.decided) this.#decide(s);
    this.#section = null;
  }

  /**
   * Pairs a section with its entry, in order: the next entry whose `diff --git a/<src> b/<dst>`
   * header it is (a header git had to quote is trusted by order), entries it skips having no
   * sections. A typechange is emitted as a deletion then a creation of the same path: both are
   * its sections.
   */
  #decide(s: Section): void {
    s.decided = true;
    const entries = this.#entries!;
    while (this.#next < entries.length || this.#pendingTypechange) {
      if (this.#pendingTypechange) {
        this.#pendingTypechange = false;
        if (s.creation) {
          s.owner = this.#next - 1;
          break;
        }
        continue;
      }
      const e = entries[this.#next++];
      if (belongsTo(s.header, e)) {
        s.owner = this.#next - 1;
        this.#pendingTypechange = e.status === "typechange";
        break;
      }
      if (e.status === "typechange" && s.creation) {
        s.owner = this.#next - 1;
        break;
      }
    }
    if (s.owner < 0) return;
    this.#openThrough(s.owner);
    const cutter = this.#cutters[s.owner];
    if (s.binary && cutter) cutter.file.binary = true;
  }

  /** Opens every entry up to `last` for carrying, in order, each spending one file of the budget. */
  #openThrough(last: number): void {
    const rows = this.#rows;
    const budget = this.budget;
    for (let i = this.#cutters.length; i <= last; i++) {
      if (!rows || !budget) {
        this.#cutters.push(null);
        continue;
      }
      if (budget.files >= budget.fileCap) {
        rows.files_capped = true;
        this.#cutters.push(null);
        continue;
      }
      budget.files++;
      const e = this.#entries![i];
      const file: DiffFile = {
        path: e.path,
        old_path: e.old_path,
        status: e.status,
        binary: false,
        submodule: e.submodule,
        truncated: false,
        lines: [],
      };
      rows.files.push(file);
      this.#cutters.push(new LineCutter(file, budget));
    }
  }
}

function belongsTo(header: string, e: RawStat): boolean {
  if (header.includes('"')) return true;
  return header === `diff --git a/${e.old_path ?? e.path} b/${e.path}`;
}

const BINARY = new TextEncoder().encode("Binary files ");
const GIT_BINARY = new TextEncoder().encode("GIT binary patch");
const DIFF_GIT = new TextEncoder().encode("diff --git ");
const NEW_FILE = new TextEncoder().encode("new file mode ");

/** Whether the line `[at, end)` of `bytes` starts with `prefix`. */
function startsWith(bytes: Uint8Array, at: number, end: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > end) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** Parse one layer's whole `git diff --raw -z -p` output into carried files, spending `budget`. */
export function parseDiff(bytes: Uint8Array, budget: DiffBudget): ParsedFiles {
  const stream = new PatchStream(budget);
  stream.push(bytes);
  return stream.end().rows!;
}
