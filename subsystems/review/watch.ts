import type { SeatFields, Slot } from "../../protocol/mod.ts";
import { seatUpdate } from "../../protocol/mod.ts";
import type { Host } from "../../server/subsystem.ts";
import type { BaseStore } from "./base.ts";
import { FileIndexer } from "./file_index.ts";
import type { PrLookup } from "./pr.ts";
import { readRecord, type ReviewRecord } from "./record.ts";
import { type Patches, type Scan, scanWithPatches } from "./scan.ts";
import type { DiffContent, GitWorkView, WorkState } from "./wire.ts";

/**
 * How long a stored scan answers a record read of a seat with a session when its watch saw no
 * write since (spec: `diff` row - "a stored scan past its window is taken again").
 */
export const STORE_WINDOW_MS = 30_000;

/** Patch text a stored scan keeps for its diff; a larger one is diffed again on the read. */
const KEEP_PATCH_BYTES = 8 * 1024 * 1024;

/** The seat's last scan, and the diff read from it once a reader asked. */
interface Stored {
  scan: Scan;
  patches: Patches | null;
  diff: DiffContent | null;
  /** The watch's write count when the scan began: any later write makes it stale. */
  writes: number;
  at: number;
}

/**
 * One seat's change watch: writes under its tree become one rescan (debounced), pushed as
 * `work_changed` only when the rows differ from what the seat's readers hold, and the file index
 * is re-walked (at most once per five seconds while still) and pushed as `file_index_changed`
 * only when it moved. spec: session table rows `git` and `file_index`.
 */
export class SeatWatch {
  readonly index: FileIndexer;
  #watcher: Deno.FsWatcher | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #told = "";
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  #writes = 0;
  #prLooking = false;
  #stored: Stored | null = null;

  constructor(
    readonly slot: Slot,
    readonly cwd: string,
    private readonly deps: {
      host: Host;
      baseStore: BaseStore;
      pr: PrLookup;
      hasSession: () => boolean;
      now?: () => number;
    },
  ) {
    // A watched tree's index is walked again only when a write poked it.
    this.index = new FileIndexer(cwd, { watched: () => this.watching });
  }

  /** True while the change watch runs: only then can a stored scan stand for the tree. */
  get watching(): boolean {
    return this.#watcher !== null && !this.#stopped;
  }

  /**
   * The record's `work`, `git` and `diff` rows. A seat with a session serves its stores (spec:
   * subscribe `review` - "every other read of a seat that has a session serves the stores"):
   * the watch's last scan while no write has landed since and it is inside
   * {@link STORE_WINDOW_MS}, and the diff read from it once, so a warm read runs no git. Any
   * other read scans now, and a seat with a session keeps what it read.
   */
  async record(review: boolean): Promise<ReviewRecord> {
    const { baseStore } = this.deps;
    const hasSession = this.deps.hasSession();
    const s = hasSession ? this.#warm() : null;
    if (s) {
      if (!s.diff) {
        const first = await readRecord(this.cwd, {
          baseStore,
          review: false,
          hasSession,
          scan: s.scan,
          patches: s.patches ?? undefined,
        });
        s.diff = first.diff;
        s.patches = null;
      }
      return await readRecord(this.cwd, {
        baseStore,
        review,
        hasSession,
        scan: s.scan,
        diff: s.diff,
      });
    }
    const writes = this.#writes;
    const read = await readRecord(this.cwd, { baseStore, review, hasSession });
    if (hasSession) this.#keep({ scan: read.scan, patches: null, diff: read.diff, writes });
    return read;
  }

  #warm(): Stored | null {
    const s = this.#stored;
    const now = (this.deps.now ?? Date.now)();
    if (!s || !this.watching || s.writes !== this.#writes || now - s.at > STORE_WINDOW_MS) {
      return null;
    }
    return s;
  }

  #keep(s: Omit<Stored, "at">): void {
    if (s.writes !== this.#writes) return; // a write landed during the scan: it is already old
    this.#stored = { ...s, at: (this.deps.now ?? Date.now)() };
  }

  /** Starts watching; a tree that cannot be watched (gone, not a directory) is logged, not fatal. */
  start(): void {
    try {
      this.#watcher = Deno.watchFs(this.cwd, { recursive: true });
    } catch (err) {
      this.deps.host.log.info("review_watch_unavailable", {
        cwd: this.cwd,
        why: (err as Error).message,
      });
      return;
    }
    (async () => {
      for await (const event of this.#watcher!) {
        // git's own bookkeeping moves .git on every scan; only a ref or index change is news.
        if (
          event.paths.every((p) => p.includes("/.git/") && !/\/\.git\/(HEAD|index|refs\/)/.test(p))
        ) continue;
        this.poke();
      }
    })().catch((error) => this.deps.host.log.warn("review_watch_died", { cwd: this.cwd, error }))
      .finally(() => {
        // A watch that ended can no longer vouch for the stores: every read scans again.
        this.#watcher = null;
        this.#writes++;
      });
  }

  /**
   * The rows `work_changed` carries (work, git, pr, closes) from a scan's two; the PR is the
   * lookup's cache for a seat with a session, looked up on the read for one without.
   */
  async rows(work: WorkState, git: GitWorkView | null): Promise<SeatFields<"work_changed">> {
    const answer = await this.deps.pr.read(this.cwd, work.branch ?? null, this.deps.hasSession());
    return { work, git, pr: answer.pr, closes: answer.closes };
  }

  /**
   * A record read served the PR cache as it stands; past its refetch window the watch looks it up
   * and pushes the corrected row (spec: session > pr, closes - "the seat's own watch looks it up
   * on its next pass, pushing the corrected row as work_changed"). The lookup runs alone, and a
   * pass (a scan) only when the answer moved: where gh cannot run it answers none again, and a
   * read of a live seat costs no second scan.
   */
  refreshPr(branch: string | null): void {
    this.#lookUpPr(branch)
      .then((moved) => {
        if (moved && !this.#stopped) this.pass();
      })
      .catch((error) =>
        this.deps.host.log.warn("review_pr_lookup_failed", { cwd: this.cwd, error })
      );
  }

  /**
   * A seat with a session reads the PR cache alone, so its watch looks a stale entry up, one
   * lookup at a time. True when the answer moved from what the cache held.
   */
  async #lookUpPr(branch: string | null): Promise<boolean> {
    const { pr } = this.deps;
    if (branch === null || this.#prLooking || !this.deps.hasSession()) return false;
    if (!pr.stale(this.cwd, branch)) return false;
    const held = JSON.stringify(pr.cached(this.cwd, branch));
    this.#prLooking = true;
    try {
      return JSON.stringify(await pr.lookup(this.cwd, branch)) !== held;
    } finally {
      this.#prLooking = false;
    }
  }

  /** Records what a record read handed a reader, so the next pass compares against it. */
  held(rows: SeatFields<"work_changed">): void {
    this.#told = JSON.stringify(rows);
  }

  /** Schedules one pass; writes inside the debounce become one. */
  poke(): void {
    if (this.#stopped) return;
    this.#writes++;
    this.index.poke();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.pass(), 150);
  }

  /** One watch pass now (also what a completed base check triggers). */
  pass(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#pass().finally(() => {
      this.#running = null;
      if (this.#again && !this.#stopped) {
        this.#again = false;
        this.pass();
      }
    });
    return this.#running;
  }

  async #pass(): Promise<void> {
    const { host, baseStore } = this.deps;
    const writes = this.#writes;
    const { scan, patches } = await scanWithPatches(this.cwd, { baseStore });
    const size = (patches.worktree?.length ?? 0) + (patches.branch?.length ?? 0);
    this.#keep({ scan, patches: size <= KEEP_PATCH_BYTES ? patches : null, diff: null, writes });
    await this.#lookUpPr(scan.work.branch ?? null);
    const rows = await this.rows(scan.work, scan.git);
    const text = JSON.stringify(rows);
    if (text !== this.#told && !this.#stopped) {
      this.#told = text;
      host.emit(seatUpdate(this.slot, "work_changed", rows));
    }
    const moved = await this.index.check();
    if (moved && !this.#stopped) {
      host.emit({
        name: "file_index_changed",
        fields: { key: this.slot, index: moved },
      });
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#stored = null;
    clearTimeout(this.#timer);
    try {
      this.#watcher?.close();
    } catch {
      // Already closed.
    }
  }
}
