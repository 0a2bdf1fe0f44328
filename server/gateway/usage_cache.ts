import { z } from "zod";
import { AccountUsage } from "../../protocol/accounts.ts";
import type { KeptFile, StateKeeper } from "../state/keeper.ts";
import { schemaParse } from "../state/words.ts";

const CacheFile = z.record(z.string(), AccountUsage);
type CacheFile = z.infer<typeof CacheFile>;

/**
 * Each account's last usage snapshot, kept in `<stateDir>/gateway/usage.json` through the
 * keeper (server/state/) so home shows the windows after a restart rather than empty bars until
 * the first response. spec: home > accounts (each account's cached usage snapshot). Saves
 * coalesce: one write in flight, and the newest snapshot after it. A damaged file is kept aside
 * and reported, the cache starts empty, and no save writes over it until it is mended or removed.
 */
export class UsageCache {
  readonly #file: KeptFile<CacheFile> | null;
  #loaded = new Map<string, AccountUsage>();
  #next: CacheFile | null = null;
  #writing: Promise<void> | null = null;

  constructor(keeper: StateKeeper | null, readonly path: string | null) {
    this.#file = keeper && path
      ? keeper.file(path, {
        area: "the accounts' cached usage",
        parse: schemaParse(CacheFile, "a usage cache"),
      })
      : null;
  }

  /** Reads the file once (boot); answers what it held, empty when missing or damaged. */
  async open(): Promise<Map<string, AccountUsage>> {
    const read = await this.#file?.read();
    if (read?.state === "read") this.#loaded = new Map(Object.entries(read.value));
    return this.#loaded;
  }

  /** What the file held at boot. */
  get loaded(): Map<string, AccountUsage> {
    return this.#loaded;
  }

  /** Queues the snapshot; the write behind it runs when the one before has landed. */
  save(usage: Map<string, AccountUsage>): void {
    if (!this.#file) return;
    this.#next = Object.fromEntries(usage);
    this.#writing ??= this.#drain();
  }

  /** Resolves once the queued snapshots have been written (or refused). */
  flushed(): Promise<void> {
    return this.#writing ?? Promise.resolve();
  }

  async #drain(): Promise<void> {
    const file = this.#file!;
    while (this.#next) {
      const value = this.#next;
      this.#next = null;
      try {
        await file.writable();
        await file.write(value);
      } catch {
        // The keeper logged the refusal or the failed write; a cache that is not written costs
        // the next boot its bars, nothing else, and the next snapshot tries again.
      }
    }
    this.#writing = null;
  }
}
