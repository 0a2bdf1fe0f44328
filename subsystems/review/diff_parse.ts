/**
 * Parse `git diff --raw -z -p` output into the `diff` row's files, under the caps
 * (spec: `diff` row): 400 lines and 32 KiB of line text per file, 512 KiB of carried line text
 * over at most 100 files per read. The raw records (NUL-separated, before an empty record) give
 * each file's paths, status and modes; the patch sections that follow come in the same order.
 */
import { parseRawNumstat, type RawStat, splitHeader } from "./parse.ts";
import type { DiffFile, DiffLine } from "./wire.ts";

/** Per-file line cap. */
export const FILE_LINE_CAP = 400;
/** Per-file line-text cap in bytes. */
export const FILE_BYTE_CAP = 32 * 1024;
/** Per-read line-text cap in bytes. */
export const READ_BYTE_CAP = 512 * 1024;
/** Per-read file cap. */
export const READ_FILE_CAP = 100;

/** What one read has spent; shared by both layers of a record so the caps are per read. */
export class DiffBudget {
  files = 0;
  bytes = 0;
  constructor(readonly fileCap = READ_FILE_CAP, readonly byteCap = READ_BYTE_CAP) {}
}

/** Files parsed for one layer, with which read-level caps bit while parsing them. */
export interface ParsedFiles {
  files: DiffFile[];
  total_files: number;
  files_capped: boolean;
  bytes_capped: boolean;
}

const dec = new TextDecoder();

type Section = [number, number];

/**
 * Pair each raw record of `git diff --raw -z -p` output with its patch sections, in order. A
 * typechange is emitted as a deletion then a creation of the same path: both are its sections.
 */
function eachFile(bytes: Uint8Array, fn: (e: RawStat, sections: Section[]) => void): number {
  const { header, patchAt } = splitHeader(bytes);
  const entries = parseRawNumstat(header.split("\0"));
  const sections = splitSections(bytes, patchAt);
  let s = 0;
  for (const e of entries) {
    const mine: Section[] = [];
    if (sections[s] && belongsTo(bytes, sections[s], e)) mine.push(sections[s++]);
    if (e.status === "typechange" && sections[s] && isCreation(bytes, sections[s])) {
      mine.push(sections[s++]);
    }
    fn(e, mine);
  }
  return entries.length;
}

/**
 * Whether a section's `diff --git a/<src> b/<dst>` header names this entry. A header git had to
 * quote (a path with a tab, newline, quote or backslash) is trusted by order.
 */
function belongsTo(bytes: Uint8Array, [start, end]: Section, e: RawStat): boolean {
  let nl = bytes.indexOf(10, start);
  if (nl < 0 || nl > end) nl = end;
  const header = dec.decode(bytes.subarray(start, nl));
  if (header.includes('"')) return true;
  return header === `diff --git a/${e.old_path ?? e.path} b/${e.path}`;
}

/**
 * Per-file added/removed counts read off the patch itself (binary files count 0/0, as numstat's
 * `-`), so one `git diff -p` serves both the stats and the record's hunks instead of a numstat
 * run and a patch run.
 */
export function patchStats(bytes: Uint8Array): RawStat[] {
  const out: RawStat[] = [];
  eachFile(bytes, (e, sections) => {
    let added = 0;
    let removed = 0;
    for (const [start, end] of sections) {
      let inHunk = false;
      for (let at = start; at < end;) {
        let nl = bytes.indexOf(10, at);
        if (nl < 0 || nl > end) nl = end;
        const c = bytes[at];
        if (c === 0x40 && bytes[at + 1] === 0x40) inHunk = true;
        else if (inHunk && c === 0x2b) added++;
        else if (inHunk && c === 0x2d) removed++;
        at = nl + 1;
      }
    }
    out.push({ ...e, added, removed });
  });
  return out;
}

/** Parse one layer's `git diff --raw -z -p` bytes into carried files, spending from `budget`. */
export function parseDiff(bytes: Uint8Array, budget: DiffBudget): ParsedFiles {
  const text = asciiText(bytes);
  const out: ParsedFiles = { files: [], total_files: 0, files_capped: false, bytes_capped: false };
  out.total_files = eachFile(bytes, (e, sections) => {
    if (budget.files >= budget.fileCap) {
      out.files_capped = true;
      return;
    }
    budget.files++;
    const file: DiffFile = {
      path: e.path,
      old_path: e.old_path,
      status: e.status,
      binary: false,
      submodule: e.submodule,
      truncated: false,
      lines: [],
    };
    const cut = new LineCutter(file, budget);
    for (const sec of sections) cut.section(bytes, sec, text);
    if (cut.readCapped) out.bytes_capped = true;
    out.files.push(file);
  });
  return out;
}

/** Accepts lines for one file until a per-file or per-read cap bites. */
export class LineCutter {
  #bytes = 0;
  readCapped = false;
  constructor(readonly file: DiffFile, readonly budget: DiffBudget) {}

  /** Offer one line; false once the file is cut (the caller may stop offering). */
  push(line: DiffLine, size: number): boolean {
    const f = this.file;
    if (f.truncated) return false;
    if (f.lines.length >= FILE_LINE_CAP || this.#bytes + size > FILE_BYTE_CAP) {
      f.truncated = true;
      return false;
    }
    if (this.budget.bytes + size > this.budget.byteCap) {
      f.truncated = true;
      this.readCapped = true;
      return false;
    }
    this.#bytes += size;
    this.budget.bytes += size;
    f.lines.push(line);
    return true;
  }

  /**
   * Parse one patch section's hunks into lines. `text` is the whole of `bytes` decoded when
   * each byte decoded to one character (see {@link asciiText}): lines are sliced from it.
   */
  section(bytes: Uint8Array, [start, end]: Section, text: string | null = null): void {
    const str = (from: number, to: number) =>
      text === null ? dec.decode(bytes.subarray(from, to)) : text.slice(from, to);
    let oldNo = 0;
    let newNo = 0;
    let inHunk = false;
    for (let at = start; at < end;) {
      let nl = bytes.indexOf(10, at);
      if (nl < 0 || nl > end) nl = end;
      const c = bytes[at];
      if (!inHunk) {
        if (startsWith(bytes, at, BINARY) || startsWith(bytes, at, GIT_BINARY)) {
          this.file.binary = true;
        }
      }
      if (c === 0x40 && bytes[at + 1] === 0x40) {
        inHunk = true;
        const header = str(at, nl);
        const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(header);
        oldNo = m ? Number(m[1]) : 0;
        newNo = m ? Number(m[2]) : 0;
        if (!this.push({ kind: "hunk", text: header, old_line: oldNo, new_line: newNo }, nl - at)) {
          return;
        }
      } else if (inHunk && (c === 0x20 || c === 0x2b || c === 0x2d)) {
        const t = str(at + 1, nl);
        const line: DiffLine = c === 0x20
          ? { kind: "context", text: t, old_line: oldNo++, new_line: newNo++ }
          : c === 0x2b
          ? { kind: "added", text: t, old_line: null, new_line: newNo++ }
          : { kind: "removed", text: t, old_line: oldNo++, new_line: null };
        if (!this.push(line, nl - at - 1)) return;
      }
      at = nl + 1;
    }
  }
}

/**
 * The patch decoded once, when every byte decoded to exactly one UTF-16 unit (ASCII, or a lone
 * invalid byte as U+FFFD, which a line's own decode gives too: no invalid sequence spans a
 * newline), so a byte offset is a character offset; else null and each line is decoded alone.
 * Measured: a decode per line was most of parsing a 200-file patch.
 */
function asciiText(bytes: Uint8Array): string | null {
  const text = dec.decode(bytes);
  return text.length === bytes.length ? text : null;
}

const BINARY = new TextEncoder().encode("Binary files ");
const GIT_BINARY = new TextEncoder().encode("GIT binary patch");
const DIFF_GIT = new TextEncoder().encode("diff --git ");
const NEW_FILE = new TextEncoder().encode("new file mode ");

function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** [start, end) byte ranges of each `diff --git` section. */
function splitSections(bytes: Uint8Array, from: number): Section[] {
  const starts: number[] = [];
  for (let at = from; at < bytes.length;) {
    if (startsWith(bytes, at, DIFF_GIT)) starts.push(at);
    const nl = bytes.indexOf(10, at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return starts.map((s, i) => [s, i + 1 < starts.length ? starts[i + 1] : bytes.length]);
}

/** Whether a section creates its file (its extended header says `new file mode`). */
function isCreation(bytes: Uint8Array, [start, end]: Section): boolean {
  for (let at = bytes.indexOf(10, start) + 1; at > 0 && at < end;) {
    if (startsWith(bytes, at, NEW_FILE)) return true;
    if (bytes[at] === 0x40 || startsWith(bytes, at, DIFF_GIT)) return false;
    const nl = bytes.indexOf(10, at);
    if (nl < 0) return false;
    at = nl + 1;
  }
  return false;
}
