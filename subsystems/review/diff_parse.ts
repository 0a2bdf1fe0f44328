/**
 * The caps the `diff` row's files are carried under (spec: `diff` row): 400 lines and 32 KiB of
 * line text per file, 512 KiB of carried line text over at most 100 files per read, and what one
 * read has spent of them. The patch itself is parsed in patch_stream.ts.
 */
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
}

/**
 * One layer's files parsed ahead of their read (as git wrote them, during the read's scan),
 * spent from a copy of that read's budget so a layer the scan throws away spends none of it.
 */
export interface ParsedAhead {
  /** The read's budget, and the spend the parse started from: where the read stands at the layer. */
  budget: DiffBudget;
  files: number;
  bytes: number;
  /** The copy, as the parse left it. */
  spent: DiffBudget;
  parsed: ParsedFiles;
}

/** A copy of `budget`, to spend ahead of its read. */
export function budgetCopy(budget: DiffBudget): DiffBudget {
  const copy = new DiffBudget(budget.fileCap, budget.byteCap);
  copy.files = budget.files;
  copy.bytes = budget.bytes;
  return copy;
}

/**
 * The files parsed ahead, when they were parsed for `budget` from the spend it has now: its spend
 * then moves on as parsing them now would have moved it (a parse is fixed by its bytes and where
 * the budget stood). Else null (parse them now).
 */
export function claimAhead(ahead: ParsedAhead | null, budget: DiffBudget): ParsedFiles | null {
  if (ahead?.budget !== budget || budget.files !== ahead.files || budget.bytes !== ahead.bytes) {
    return null;
  }
  budget.files = ahead.spent.files;
  budget.bytes = ahead.spent.bytes;
  return ahead.parsed;
}
