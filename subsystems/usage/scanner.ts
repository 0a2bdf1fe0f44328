/**
 * The usage subsystem's one entry point: scan the pool on the ask and answer the snapshot.
 * spec: Subjects > usage ("Nothing updates this subject ... a subscription is answered once").
 */
import { join } from "node:path";
import { PriceTable } from "./prices.ts";
import { type ProjectRef, ReportFold, type UsageSnapshot, windowStarts } from "./report.ts";
import { type PoolFile, type PoolScan, PoolScanner } from "./scan.ts";

/** What a report was built from: the pool's files (the scan's own objects), projects, windows. */
interface Basis {
  files: PoolFile[];
  projects: string;
  windows: string;
  /** The gateway's request-id -> account map the report attributed cost by. */
  accounts: ReadonlyMap<string, string> | null;
}

/** The fold a report came from, kept for the next scan, and how many records of each file it
 * folded. */
interface Kept {
  fold: ReportFold;
  folded: Map<string, number>;
}

function sameBasis(a: Basis, b: Basis): boolean {
  return a.projects === b.projects && a.windows === b.windows &&
    a.files.length === b.files.length && a.files.every((f, i) => f === b.files[i]) &&
    sameMap(a.accounts, b.accounts);
}

function sameMap(
  a: ReadonlyMap<string, string> | null,
  b: ReadonlyMap<string, string> | null,
): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

export type { ProjectRef, UsageSnapshot } from "./report.ts";

/** How to build a scanner. */
export interface UsageScannerOptions {
  /** CLI config dirs to scan: each configured account's and the default one. */
  configDirs: string[];
  /** Forge projects, for the by_project grouping. */
  projects: ProjectRef[];
  /** The price table; omitted means the bundled `prices.json`, null means none. */
  prices?: PriceTable | null;
  /** The reader threads' module for a first scan (a bench's plain-text reader); omitted, the
   * byte reader (scan_worker.ts). */
  reader?: URL;
}

/** One scan's answer: the snapshot for the wire and the facts for the log. */
export interface UsageScanResult {
  snapshot: UsageSnapshot;
  /** Lines that failed to parse, over the whole pool; log them, they are not fatal. */
  skipped_lines: number;
  skipped_files: PoolScan["skipped_files"];
  /** Files or directories the scan could not read, with the reason. */
  unreadable: PoolScan["unreadable"];
  /** Why the price table did not load, when it did not. */
  price_error: string | null;
  files_read: number;
  files_reused: number;
  /** Of files_read, those read on from where their last read ended (scan.ts). */
  files_appended: number;
  bytes_read: number;
  /** How the report was made: the last one again (nothing moved), the last one's fold with what
   * the pool gained, or every file folded. */
  report: "kept" | "grown" | "folded";
}

/** Scans the session pool, re-reading only files changed since its previous scan. */
export class UsageScanner {
  readonly #pool: PoolScanner;
  readonly #prices: PriceTable | null;
  readonly #priceError: string | null;
  #projects: ProjectRef[];
  #last: { basis: Basis; snapshot: UsageSnapshot; kept: Kept } | null = null;

  constructor(opts: UsageScannerOptions) {
    this.#pool = new PoolScanner(opts.configDirs, { reader: opts.reader });
    this.#projects = [...opts.projects];
    let prices: PriceTable | null = null;
    let priceError: string | null = null;
    if (opts.prices === undefined) {
      try {
        prices = PriceTable.bundled();
      } catch (err) {
        priceError = err instanceof Error ? err.message : String(err);
      }
    } else {
      prices = opts.prices;
    }
    this.#prices = prices;
    this.#priceError = priceError;
  }

  /**
   * Folds into the kept report only what the pool gained since it was built - the records a
   * file gained past the ones folded, a new file's all - when that gives what a fold of every
   * file would: no file held was read anew or went, the account map only named requests the
   * report has not seen, and no new record is a message counted first in a later file. False
   * otherwise, and the kept fold is then spoilt: the caller folds every file afresh.
   */
  #grow(
    kept: Kept,
    pool: PoolScan,
    now: Date,
    accounts: ReadonlyMap<string, string> | undefined,
  ): boolean {
    if (pool.files_rewritten > 0 || !kept.fold.attributes(accounts)) return false;
    kept.fold.moveOn(now, accounts);
    for (const file of pool.files) {
      const folded = kept.folded.get(file.path) ?? 0;
      if (file.packed.count > folded) kept.fold.add(file, folded);
      kept.folded.set(file.path, file.packed.count);
    }
    return !kept.fold.later;
  }

  /** Replace the project list (projects come and go while the server runs). */
  setProjects(projects: ProjectRef[]): void {
    this.#projects = [...projects];
  }

  /** Scan now; `now` fixes the windows' local-time boundaries (default: the clock). */
  async scan(
    now: Date = new Date(),
    accounts?: ReadonlyMap<string, string>,
  ): Promise<UsageScanResult> {
    const opts = { projects: this.#projects, prices: this.#prices, now, accounts };
    const projects = JSON.stringify(this.#projects), windows = JSON.stringify(windowStarts(now));
    const last = this.#last;
    const sameGrouping = last?.basis.projects === projects && last.basis.windows === windows;
    // A first scan (or one for other projects or windows) hands over the pool in path order as
    // it lands: fold it meanwhile. A later one may only need to fold what is new (#grow).
    const fold = sameGrouping ? null : new ReportFold(opts);
    const pool = await this.#pool.scan(fold ? (file) => fold.add(file) : undefined);
    const basis: Basis = { files: pool.files, projects, windows, accounts: accounts ?? null };
    let snapshot: UsageSnapshot, kept: Kept, report: UsageScanResult["report"] = "folded";
    if (fold && fold.files > 0 && fold.files === pool.files.length) {
      [snapshot, kept] = [fold.snapshot(), keep(fold, pool.files)];
    } else if (last && sameGrouping && pool.files_read === 0 && sameBasis(last.basis, basis)) {
      // Every file reused, the same request accounts: the same report, for the walk alone.
      [snapshot, kept, report] = [last.snapshot, last.kept, "kept"];
    } else if (last && sameGrouping && this.#grow(last.kept, pool, now, accounts)) {
      [snapshot, kept, report] = [last.kept.fold.snapshot(), last.kept, "grown"];
    } else {
      const all = new ReportFold(opts);
      for (const file of pool.files) all.add(file);
      [snapshot, kept] = [all.snapshot(), keep(all, pool.files)];
    }
    this.#last = { basis, snapshot, kept };
    return {
      snapshot,
      skipped_lines: pool.skipped_lines,
      skipped_files: pool.skipped_files,
      unreadable: pool.unreadable,
      price_error: this.#priceError,
      files_read: pool.files_read,
      files_reused: pool.files_reused,
      files_appended: pool.files_appended,
      bytes_read: pool.bytes_read,
      report,
    };
  }
}

/** A fold to keep, with what it folded of each file. */
function keep(fold: ReportFold, files: PoolFile[]): Kept {
  return { fold, folded: new Map(files.map((f) => [f.path, f.packed.count])) };
}

/**
 * The CLI's default config dir, as the CLI resolves it: `$CLAUDE_CONFIG_DIR`, else
 * `$HOME/.claude`; null when neither variable is set. Pass it with the accounts' dirs.
 */
export function defaultConfigDir(env: (name: string) => string | undefined): string | null {
  const configured = env("CLAUDE_CONFIG_DIR");
  if (configured) return configured;
  const home = env("HOME");
  return home ? join(home, ".claude") : null;
}
