import { Slot, slotName } from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import { JsonFile } from "./json_file.ts";

/** A seat's last occupant, as the book keeps it. */
export interface SessionRecord {
  slot: Slot;
  session_id: string;
  /** The working directory the CLI ran in (a resume must run there to find its transcript). */
  cwd: string;
  /** `<config dir>/projects/<slug>/<session id>.jsonl` (claude/paths.ts). */
  transcript: string;
}

/**
 * Which session each seat last held, kept on disk (`<state>/seats/sessions.json`) so the seat's
 * conversation outlives the server: after a restart a seat with no live session still pages
 * its last transcript, and an `auto_start` lead resumes it ("after a server
 * restart every seat's history is still pageable to its first row"). Written when an occupant
 * starts, removed when a worker's seat is closed. Writes are serialised and atomic (temp +
 * rename); a book that cannot be read or written is logged and never stops a seat.
 */
export class SessionBook {
  #records = new Map<string, SessionRecord>();
  readonly #file: JsonFile;

  constructor(dir: string, private readonly log: Logger) {
    this.#file = new JsonFile(dir, "sessions.json", log, {
      unreadable: "seat_session_book_unreadable",
      unwritable: "seat_session_book_unwritable",
    });
  }

  get path(): string {
    return this.#file.path;
  }

  /** Reads the book a previous run left; answers its records (an unreadable book is empty). */
  async load(): Promise<SessionRecord[]> {
    const raw = await this.#file.read();
    this.#records.clear();
    if (raw && typeof raw === "object" && !Array.isArray(raw)) {
      for (const value of Object.values(raw as Record<string, unknown>)) {
        const rec = record(value);
        if (rec) this.#records.set(slotName(rec.slot), rec);
      }
    }
    return [...this.#records.values()];
  }

  get(slot: Slot): SessionRecord | undefined {
    return this.#records.get(slotName(slot));
  }

  set(rec: SessionRecord): void {
    const name = slotName(rec.slot);
    const old = this.#records.get(name);
    if (old && JSON.stringify(old) === JSON.stringify(rec)) return;
    this.#records.set(name, rec);
    void this.#write();
  }

  delete(slot: Slot): void {
    if (this.#records.delete(slotName(slot))) void this.#write();
  }

  /** Resolves once every queued write has landed. */
  flushed(): Promise<void> {
    return this.#file.flushed();
  }

  #write(): Promise<void> {
    return this.#file.write(JSON.stringify(Object.fromEntries(this.#records), null, 1));
  }
}

function record(value: unknown): SessionRecord | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const slot = Slot.safeParse(v.slot);
  if (!slot.success) return null;
  const strings = [v.session_id, v.cwd, v.transcript].every((x) => typeof x === "string" && x);
  if (!strings) return null;
  return {
    slot: slot.data,
    session_id: v.session_id as string,
    cwd: v.cwd as string,
    transcript: v.transcript as string,
  };
}
