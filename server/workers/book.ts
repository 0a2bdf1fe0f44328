import { McpFamily, Slot, slotName } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import { JsonFile } from "../workspace/seats/json_file.ts";

/** A worker forge remembers (mcp_tools.md §4: workers are durable). */
export interface WorkerRecord {
  slot: Slot;
  charter: string;
  kick: string | null;
  resume_kick: string | null;
  interactive: boolean;
  /** The families picked; null = every family (mcp_tools.md §2: the canonical stored form). */
  mcp_families: McpFamily[] | null;
  worktree: string;
  spawned_by: Slot;
  /** Whether a restart brings it back: true from spawn until it is closed or despawned. */
  live: boolean;
}

/**
 * The workers forge remembers, kept at `<state>/workers/workers.json`: written at every spawn,
 * close, update and despawn, read at boot so each live worker is spawned again on its own
 * session (its last session is the seats' session book's). Writes are serialised and atomic.
 */
export class WorkerBook {
  #records = new Map<string, WorkerRecord>();
  readonly #file: JsonFile;
  #failed: string | null = null;

  constructor(dir: string, private readonly log: Logger) {
    this.#file = new JsonFile(dir, "workers.json", log, {
      unreadable: "worker_book_unreadable",
      unwritable: "worker_book_unwritable",
    });
  }

  async load(): Promise<WorkerRecord[]> {
    const raw = await this.#file.read();
    this.#records.clear();
    if (raw && typeof raw === "object" && !Array.isArray(raw)) {
      for (const value of Object.values(raw as Record<string, unknown>)) {
        const rec = parse(value);
        if (rec) this.#records.set(slotName(rec.slot), rec);
        else this.log.warn("worker_book_row_dropped", { row: value });
      }
    }
    return [...this.#records.values()];
  }

  get(slot: Slot): WorkerRecord | undefined {
    return this.#records.get(slotName(slot));
  }

  all(): WorkerRecord[] {
    return [...this.#records.values()];
  }

  /** Stores the record; answers a sentence when the write did not land (the durability warning). */
  async set(rec: WorkerRecord): Promise<string | null> {
    this.#records.set(slotName(rec.slot), rec);
    return await this.#write();
  }

  async delete(slot: Slot): Promise<void> {
    if (this.#records.delete(slotName(slot))) await this.#write();
  }

  flushed(): Promise<void> {
    return this.#file.flushed();
  }

  async #write(): Promise<string | null> {
    this.#failed = null;
    const text = JSON.stringify(Object.fromEntries(this.#records), null, 1);
    await this.#file.write(text);
    // JsonFile logs a failed write and carries on; read back to tell the caller.
    try {
      if (await Deno.readTextFile(this.#file.path) !== text) this.#failed = "changed since";
    } catch (err) {
      this.#failed = (err as Error).message;
    }
    return this.#failed === null
      ? null
      : `forge could not remember this worker across a restart (${this.#file.path}: ${this.#failed})`;
  }
}

function parse(value: unknown): WorkerRecord | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const slot = Slot.safeParse(v.slot);
  const by = Slot.safeParse(v.spawned_by);
  if (!slot.success || !by.success) return null;
  if (typeof v.charter !== "string" || typeof v.worktree !== "string") return null;
  const str = (x: unknown) => (typeof x === "string" && x.length > 0 ? x : null);
  const families = Array.isArray(v.mcp_families)
    ? v.mcp_families.filter((f) => McpFamily.safeParse(f).success) as McpFamily[]
    : null;
  return {
    slot: slot.data,
    charter: v.charter,
    kick: str(v.kick),
    resume_kick: str(v.resume_kick),
    interactive: v.interactive === true,
    mcp_families: families && families.length > 0 ? families : null,
    worktree: v.worktree,
    spawned_by: by.data,
    live: v.live !== false,
  };
}
