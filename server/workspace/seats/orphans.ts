import { z } from "zod";
import type { Logger } from "../../log.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../../state/keeper.ts";
import { descendants, probe, readTable, signal, startTime } from "./procfs.ts";

/** One CLI process this server started, as the book records it. */
const PidRecord = z.object({
  pid: z.number().int().positive(),
  /** Its start time (procfs.ts): a pid the kernel reused for something else does not match;
   * null when no process table could be read, and then it is never signalled. */
  start: z.string().nullable(),
  seat: z.string(),
});
type PidRecord = z.infer<typeof PidRecord>;
const PidFile = z.array(PidRecord);

/**
 * The book of CLI processes this server runs, kept on disk (`<state>/seats/pids.json`) so the
 * next boot can tell whether a run that died without its shutdown left any behind. A clean
 * shutdown leaves the book empty; at boot every recorded pid that is still the same process
 * (same start time) is ended - its own tool processes first, then it: SIGTERM, which the CLI
 * answers by ending its tasks, then SIGKILL. Without a readable process table (procfs.ts) a pid
 * cannot be told from its reuse, so it is logged and left alone. The book is kept by the keeper
 * (server/state/): a book that does not parse is kept aside and reported, nothing is reaped on
 * its word, and `damage` refuses every seat launch until it is mended or removed (a process
 * launched then could not be recorded, so a crash would leave it behind unseen).
 */
export class PidBook {
  #records = new Map<number, PidRecord>();
  /** Adds whose start time is still being read: `flushed` waits for them. */
  readonly #adding = new Set<Promise<void>>();
  readonly #file: KeptFile<PidRecord[]>;

  constructor(keeper: StateKeeper, dir: string, private readonly log: Logger) {
    this.#file = keeper.file(`${dir}/pids.json`, {
      area: "the seats",
      parse: schemaParse(PidFile, "a process book"),
    });
  }

  get path(): string {
    return this.#file.path;
  }

  /** Why no seat may launch (the book is damaged); null when they may. */
  get damage(): string | null {
    return this.#file.damage;
  }

  /**
   * Before a launch or a write: a mended (or removed) book clears the damage; a damaged one
   * throws. A book read again (mended, or changed on disk since this run wrote it) has its
   * leftovers reaped: the processes it names that this run did not start, never its own.
   */
  async writable(): Promise<void> {
    const read = await this.#file.writable();
    if (read?.state === "read") {
      await this.#reapAll(read.value.filter((rec) => !this.#records.has(rec.pid)));
    }
  }

  /** Ends what a previous run left behind, then starts an empty book. Returns the pids ended. */
  async reap(): Promise<number[]> {
    const left = await this.#file.read();
    if (left.state === "damaged") return [];
    const reaped = await this.#reapAll(left.state === "read" ? left.value : []);
    await this.#write();
    return reaped;
  }

  async #reapAll(left: PidRecord[]): Promise<number[]> {
    const reaped: number[] = [];
    for (const rec of left) {
      if (rec.start === null || probe().source === null) {
        this.log.warn("seat_orphan_unchecked", { pid: rec.pid, seat: rec.seat, why: probe().why });
        continue;
      }
      if (await startTime(rec.pid) !== rec.start) continue;
      const done = await this.#end(rec);
      if (done) reaped.push(rec.pid);
    }
    return reaped;
  }

  /**
   * Records a process this server just started, then runs `first` (its first request): a
   * process is on disk before it is given any work, so a kill from then on leaves nothing the
   * next boot's reap cannot see. A book that cannot be written was logged; `first` still runs.
   */
  async admit<T>(pid: number, seat: string, first: () => Promise<T>): Promise<T> {
    await this.add(pid, seat);
    return await first();
  }

  /** Records a process this server just started (its start time is read, then written);
   * resolves once the record is on disk (or its write failed and was logged). */
  add(pid: number, seat: string): Promise<void> {
    const rec: PidRecord = { pid, start: null, seat };
    this.#records.set(pid, rec);
    const recorded = (async () => {
      if (probe().source !== null) rec.start = await startTime(pid);
      if (this.#records.get(pid) === rec) await this.#write();
    })();
    this.#adding.add(recorded);
    void recorded.finally(() => this.#adding.delete(recorded));
    return recorded;
  }

  remove(pid: number): void {
    if (this.#records.delete(pid)) void this.#write();
  }

  /** Resolves once every queued write has landed. */
  async flushed(): Promise<void> {
    // An add writes only once its start time is read: wait for those before the file's queue.
    await Promise.all(this.#adding);
    return this.#file.flushed();
  }

  async #end(rec: PidRecord): Promise<boolean> {
    const table = await readTable();
    const kids = table ? descendants(table, rec.pid).reverse() : [];
    try {
      for (const pid of kids) await signal(pid, "SIGKILL");
      await signal(rec.pid, "SIGTERM");
      for (let i = 0; i < 40 && await startTime(rec.pid) === rec.start; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (await startTime(rec.pid) === rec.start) await signal(rec.pid, "SIGKILL");
      this.log.warn("seat_orphan_reaped", { pid: rec.pid, seat: rec.seat, children: kids.length });
      return true;
    } catch (err) {
      this.log.error("seat_orphan_unreaped", { pid: rec.pid, seat: rec.seat, error: err });
      return false;
    }
  }

  async #write(): Promise<void> {
    try {
      // A book changed on disk since is read again first, never written over unseen.
      await this.writable();
      await this.#file.write([...this.#records.values()]);
    } catch (error) {
      // The keeper logged the cause; this names what it costs.
      this.log.warn("seat_pid_book_unwritable", { path: this.path, error });
    }
  }
}
