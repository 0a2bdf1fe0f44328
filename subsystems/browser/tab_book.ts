import { z } from "zod";
import type { Logger } from "../../server/log.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../../server/subsystem.ts";

/** One seat's open tabs on a profile: their pages in the order opened, and the current one. */
const SeatTabs = z.object({
  urls: z.array(z.string()),
  /** The seat's current tab, as an index into `urls`; null when it has none. */
  active: z.number().int().nonnegative().nullable(),
});
export type SeatTabs = z.infer<typeof SeatTabs>;

/** Profile key -> seat name -> that seat's tabs. */
const Stored = z.record(z.string(), z.record(z.string(), SeatTabs));
type Stored = z.infer<typeof Stored>;

/**
 * Each seat's open tabs per browser profile, kept in `state/browser_tabs.json` so that a host
 * that starts again (after forge restarted, or the host closed or died) reopens the pages its
 * seats were on rather than one blank boot tab. An extension: the spec keeps no tab across a
 * host (spec: browser_view: "a successor host's first tab takes number 1 again"). The file is
 * forge's keeper's: a damaged one is kept aside and reported, nothing is reopened from it, and no
 * change is written over it until it is mended or removed (docs/state.md).
 */
export class TabBook {
  /** What the book holds: what the file holds once the writes out have landed. */
  #held: Stored = {};
  /** The profiles changed since the last write landed: laid over a file a person edited. */
  #touched = new Set<string>();
  #writing: Promise<void> | null = null;
  #again = false;
  private readonly file: KeptFile<Stored>;

  /** Settles once the file was read (at open): nothing is reopened or written before. */
  readonly ready: Promise<void>;
  #read = false;

  constructor(keeper: StateKeeper, stateDir: string, private readonly log: Logger) {
    this.file = keeper.file(`${stateDir}/browser_tabs.json`, {
      area: "the browser's kept tabs",
      parse: schemaParse(Stored, "a list of each seat's browser tabs"),
      indent: 1,
    });
    this.ready = this.file.read().then((read) => {
      if (read.state === "read") this.#held = read.value;
    }).catch((error) => {
      // A file that could not be read at all (its folder's permissions) keeps nothing to reopen.
      this.log.warn("browser_tabs_unread", { error });
    }).finally(() => (this.#read = true));
  }

  /** The tabs each seat of `profile` had open when they were last recorded. */
  of(profile: string): Record<string, SeatTabs> {
    return structuredClone(this.#held[profile] ?? {});
  }

  /** Records `profile`'s seats' tabs as they are now (a seat with none drops out). */
  record(profile: string, seats: Record<string, SeatTabs>): void {
    if (!this.#read) return void this.ready.then(() => this.record(profile, seats));
    const next = Object.keys(seats).length > 0 ? seats : undefined;
    if (JSON.stringify(next) === JSON.stringify(this.#held[profile])) return;
    if (next) this.#held[profile] = structuredClone(next);
    else delete this.#held[profile];
    this.#touched.add(profile);
    this.#flush();
  }

  /** A seat's session ended while its host was down: its tabs are not reopened. */
  forget(profile: string, seat: string): void {
    const seats = this.of(profile);
    if (!(seat in seats)) return;
    delete seats[seat];
    this.record(profile, seats);
  }

  /** Resolves once every change recorded so far has been written (or refused). */
  async flushed(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  /** One write at a time, each of the latest the book holds. */
  #flush(): void {
    if (this.#writing) {
      this.#again = true;
      return;
    }
    this.#writing = this.#write().finally(() => {
      this.#writing = null;
      if (this.#again) {
        this.#again = false;
        this.#flush();
      }
    });
  }

  async #write(): Promise<void> {
    try {
      // A file a person edited (or mended) is taken in, and the profiles changed here laid over.
      const read = await this.file.writable();
      if (read) {
        const base: Stored = read.state === "read" ? read.value : {};
        for (const p of this.#touched) {
          if (this.#held[p]) base[p] = this.#held[p];
          else delete base[p];
        }
        this.#held = base;
      }
      await this.file.write(structuredClone(this.#held));
      this.#touched.clear();
    } catch (error) {
      // The keeper said why in its words (a damaged file is never written over); the tabs are
      // still open, only not kept for the next start.
      this.log.warn("browser_tabs_not_kept", { error });
    }
  }
}
