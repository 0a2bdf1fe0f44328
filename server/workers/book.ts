import { z } from "zod";
import { McpFamily, Slot, slotName } from "../../protocol/mod.ts";
import { Lock } from "../lock.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../state/keeper.ts";

/** A worker forge remembers (the original forge's `agents` tool family: workers are durable). */
const WorkerRecord = z.object({
  slot: Slot,
  charter: z.string(),
  kick: z.string().nullable(),
  resume_kick: z.string().nullable(),
  interactive: z.boolean(),
  /** The families picked; null = every family (the original's canonical stored form). */
  mcp_families: z.array(McpFamily).nullable(),
  worktree: z.string(),
  spawned_by: Slot,
  /** Whether a restart brings it back: true from spawn until it is closed or despawned. */
  live: z.boolean(),
  /**
   * A first spawn still under way: written before the worktree is made, cleared once the worker
   * is live. A boot that finds it set cleans up what the cut spawn made (no worktree is left
   * behind that no worker owns).
   */
  spawning: z.literal(true).optional(),
});
export type WorkerRecord = z.infer<typeof WorkerRecord>;
const BookFile = z.record(z.string(), WorkerRecord);
type BookFile = z.infer<typeof BookFile>;

/**
 * The workers forge remembers, kept at `<state>/workers/workers.json` through the keeper
 * (server/state/): written at every spawn, close, update and despawn, read at boot so each live
 * worker is spawned again on its own session (its last session is the seats' session book's). A
 * book that does not parse is kept aside and reported, and every change is refused in words
 * until it is mended (then read back) or removed.
 */
export class WorkerBook {
  #records = new Map<string, WorkerRecord>();
  readonly #lock = new Lock();
  readonly #file: KeptFile<BookFile>;

  constructor(keeper: StateKeeper, dir: string) {
    this.#file = keeper.file(`${dir}/workers.json`, {
      area: "the workers",
      parse: schemaParse(BookFile, "a worker book"),
      indent: 1,
    });
  }

  get path(): string {
    return this.#file.path;
  }

  /** Why the workers cannot change (the book is damaged); null when they can. */
  get damage(): string | null {
    return this.#file.damage;
  }

  async load(): Promise<WorkerRecord[]> {
    const read = await this.#file.read();
    if (read.state !== "damaged") {
      this.#records = new Map(Object.entries(read.state === "read" ? read.value : {}));
    }
    return [...this.#records.values()];
  }

  get(slot: Slot): WorkerRecord | undefined {
    return this.#records.get(slotName(slot));
  }

  all(): WorkerRecord[] {
    return [...this.#records.values()];
  }

  /** Stores the record; rejects with the keeper's words when it did not land (nothing moved). */
  async set(rec: WorkerRecord): Promise<void> {
    await this.#change((records) => records.set(slotName(rec.slot), rec));
  }

  async delete(slot: Slot): Promise<void> {
    if (!this.#records.has(slotName(slot))) return;
    await this.#change((records) => records.delete(slotName(slot)));
  }

  flushed(): Promise<void> {
    return this.#file.flushed();
  }

  /**
   * One change at a time: a mended book is read back first; the map moves only once the write
   * landed, so a refused or failed write changes nothing.
   */
  #change(fn: (records: Map<string, WorkerRecord>) => void): Promise<void> {
    return this.#lock.run(async () => {
      const mended = await this.#file.writable();
      if (mended) {
        this.#records = new Map(Object.entries(mended.state === "read" ? mended.value : {}));
      }
      const next = new Map(this.#records);
      fn(next);
      await this.#file.write(Object.fromEntries(next));
      this.#records = next;
    });
  }
}
