/**
 * The usage subsystem's one entry point: scan the pool on the ask and answer the snapshot.
 * spec: Subjects > usage ("Nothing updates this subject ... a subscription is answered once").
 */
import { join } from "node:path";
import { PriceTable } from "./prices.ts";
import { buildSnapshot, type ProjectRef, type UsageSnapshot } from "./report.ts";
import { type PoolScan, PoolScanner } from "./scan.ts";

export type { ProjectRef, UsageSnapshot } from "./report.ts";
export { UsageSnapshotSchema } from "./report.ts";

/** How to build a scanner. */
export interface UsageScannerOptions {
  /** CLI config dirs to scan: each configured account's and the default one. */
  configDirs: string[];
  /** Forge projects, for the by_project grouping. */
  projects: ProjectRef[];
  /** The price table; omitted means the bundled `prices.json`, null means none. */
  prices?: PriceTable | null;
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
}

/** Scans the session pool, re-reading only files changed since its previous scan. */
export class UsageScanner {
  readonly #pool: PoolScanner;
  readonly #prices: PriceTable | null;
  readonly #priceError: string | null;
  #projects: ProjectRef[];

  constructor(opts: UsageScannerOptions) {
    this.#pool = new PoolScanner(opts.configDirs);
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
    const pool = await this.#pool.scan();
    const snapshot = buildSnapshot(pool.files, {
      projects: this.#projects,
      prices: this.#prices,
      now,
      accounts,
    });
    return {
      snapshot,
      skipped_lines: pool.skipped_lines,
      skipped_files: pool.skipped_files,
      unreadable: pool.unreadable,
      price_error: this.#priceError,
      files_read: pool.files_read,
      files_reused: pool.files_reused,
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
