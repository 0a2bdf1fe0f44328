/**
 * The usage subsystem's one entry point: scan the pool on the ask and answer the snapshot.
 * spec: Subjects > usage ("Nothing updates this subject ... a subscription is answered once").
 */
import { join } from "node:path";
import { PriceTable } from "./prices.ts";
import {
  buildSnapshot,
  type ProjectRef,
  ReportFold,
  type UsageSnapshot,
  windowStarts,
} from "./report.ts";
import { type PoolFile, type PoolScan, PoolScanner } from "./scan.ts";

/** What a report was built from: the pool's files (the scan's own objects), projects, windows. */
interface Basis {
  files: PoolFile[];
  projects: string;
  windows: string;
  /** The gateway's request-id -> account map the report attributed cost by. */
  accounts: ReadonlyMap<string, string> | null;
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
}

/** Scans the session pool, re-reading only files changed since its previous scan. */
export class UsageScanner {
  readonly #pool: PoolScanner;
  readonly #prices: PriceTable | null;
  readonly #priceError: string | null;
  #projects: ProjectRef[];
  #last: { basis: Basis; snapshot: UsageSnapshot } | null = null;

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
    // A scan that reads files hands over the pool in path order as it lands: fold it meanwhile.
    const fold = new ReportFold(opts);
    const pool = await this.#pool.scan((file) => fold.add(file));
    // A pool whose every file was reused, read for the same projects, windows and request
    // accounts, adds up to the same report: a rescan with nothing changed costs the walk alone.
    const basis: Basis = {
      files: pool.files,
      projects: JSON.stringify(this.#projects),
      windows: JSON.stringify(windowStarts(now)),
      accounts: accounts ?? null,
    };
    const last = this.#last;
    const snapshot = fold.files > 0 && fold.files === pool.files.length
      ? fold.snapshot()
      : last && pool.files_read === 0 && sameBasis(last.basis, basis)
      ? last.snapshot
      : buildSnapshot(pool.files, opts);
    this.#last = { basis, snapshot };
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
    };
  }
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
