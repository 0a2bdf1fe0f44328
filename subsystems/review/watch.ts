import type { Slot, Wire } from "../../protocol/mod.ts";
import type { Host } from "../../server/subsystem.ts";
import type { BaseStore } from "./base.ts";
import { FileIndexer } from "./file_index.ts";
import type { PrLookup } from "./pr.ts";
import { scanTree } from "./scan.ts";
import type { GitWorkView, WorkState } from "./wire.ts";

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

  constructor(
    readonly slot: Slot,
    readonly cwd: string,
    private readonly deps: {
      host: Host;
      baseStore: BaseStore;
      pr: PrLookup;
      hasSession: () => boolean;
    },
  ) {
    this.index = new FileIndexer(cwd);
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
    })().catch(() => {});
  }

  /**
   * The rows `work_changed` carries (work, git, pr, closes) from a scan's two; the PR is the
   * lookup's cache for a seat with a session, looked up on the read for one without.
   */
  async rows(work: WorkState, git: GitWorkView | null): Promise<Record<string, Wire>> {
    const answer = await this.deps.pr.read(this.cwd, work.branch ?? null, this.deps.hasSession());
    return { work, git, pr: answer.pr, closes: answer.closes } as unknown as Record<string, Wire>;
  }

  /** Records what a record read handed a reader, so the next pass compares against it. */
  held(rows: Record<string, Wire>): void {
    this.#told = JSON.stringify(rows);
  }

  /** Schedules one pass; writes inside the debounce become one. */
  poke(): void {
    if (this.#stopped) return;
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
    const scan = await scanTree(this.cwd, { baseStore });
    const rows = await this.rows(scan.work, scan.git);
    const text = JSON.stringify(rows);
    if (text !== this.#told && !this.#stopped) {
      this.#told = text;
      host.emit({ name: "work_changed", fields: { key: this.slot, ...rows } });
    }
    const moved = await this.index.check();
    if (moved && !this.#stopped) {
      host.emit({
        name: "file_index_changed",
        fields: { key: this.slot, index: moved as unknown as Wire },
      });
    }
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    try {
      this.#watcher?.close();
    } catch {
      // Already closed.
    }
  }
}
