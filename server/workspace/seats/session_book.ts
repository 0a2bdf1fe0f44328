import { z } from "zod";
import { Slot, slotName } from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import {
  type KeptFile,
  schemaParse,
  type StateKeeper,
  StateWriteError,
} from "../../state/keeper.ts";

/** A seat's last occupant, as the book keeps it. */
const SessionRecord = z.object({
  slot: Slot,
  session_id: z.string().min(1),
  /** The working directory the CLI ran in (a resume must run there to find its transcript). */
  cwd: z.string().min(1),
  /** `<config dir>/projects/<slug>/<session id>.jsonl` (claude/paths.ts). */
  transcript: z.string().min(1),
});
export type SessionRecord = z.infer<typeof SessionRecord>;
const BookFile = z.record(z.string(), SessionRecord);
type BookFile = z.infer<typeof BookFile>;

/**
 * Which session each seat last held, kept on disk (`<state>/seats/sessions.json`) so the seat's
 * conversation outlives the server: after a restart a seat with no live session still pages
 * its last transcript, and an `auto_start` lead resumes it ("after a server restart every seat's
 * history is still pageable to its first row"). Written when an occupant starts, removed when a
 * worker's seat is closed, through the keeper (server/state/). A book that does not parse is
 * kept aside and reported, and `damage` refuses every seat launch until it is mended or removed:
 * a launch then could not be remembered, and a resume could not find its session.
 */
export class SessionBook {
  #records = new Map<string, SessionRecord>();
  /** Writes begun and not yet settled, a re-write after a hand edit included. */
  readonly #writing = new Set<Promise<void>>();
  readonly #file: KeptFile<BookFile>;

  constructor(keeper: StateKeeper, dir: string, private readonly log: Logger) {
    this.#file = keeper.file(`${dir}/sessions.json`, {
      area: "the seats",
      parse: schemaParse(BookFile, "a session book"),
      indent: 1,
    });
  }

  get path(): string {
    return this.#file.path;
  }

  /** Why no seat may launch (the book is damaged); null when they may. */
  get damage(): string | null {
    return this.#file.damage;
  }

  /** Reads the book a previous run left; answers its records (none when damaged). */
  async load(): Promise<SessionRecord[]> {
    this.#adopt(await this.#file.read());
    return [...this.#records.values()];
  }

  /** Before a launch: a mended book is read back; a damaged one throws the refusal. */
  async writable(): Promise<void> {
    const mended = await this.#file.writable();
    if (mended) this.#adopt(mended);
  }

  get(slot: Slot): SessionRecord | undefined {
    return this.#records.get(slotName(slot));
  }

  set(rec: SessionRecord): void {
    const name = slotName(rec.slot);
    const old = this.#records.get(name);
    if (old && JSON.stringify(old) === JSON.stringify(rec)) return;
    this.#records.set(name, rec);
    this.#track(this.#write((records) => records.set(name, rec)));
  }

  delete(slot: Slot): void {
    const name = slotName(slot);
    if (this.#records.delete(name)) this.#track(this.#write((records) => records.delete(name)));
  }

  /** Resolves once every write begun has settled (landed, or logged as unwritable). */
  async flushed(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing);
    await this.#file.flushed();
  }

  #track(write: Promise<void>): void {
    this.#writing.add(write);
    void write.finally(() => this.#writing.delete(write));
  }

  #adopt(read: Awaited<ReturnType<KeptFile<BookFile>["read"]>>): void {
    if (read.state === "damaged") return;
    this.#records = new Map(Object.entries(read.state === "read" ? read.value : {}));
  }

  /**
   * Writes the book; `change` is what this write adds, so that when the file changed on disk
   * since it was read (a hand edit that still parses) the file's records are adopted first and
   * the change lands on top of them: neither the edit nor this change is lost.
   */
  async #write(change: (records: Map<string, SessionRecord>) => void): Promise<void> {
    try {
      await this.#file.write(Object.fromEntries(this.#records));
    } catch (error) {
      if (error instanceof StateWriteError && error.reason === "changed") {
        return await this.#rewrite(change);
      }
      // The keeper logged the cause; this names what it costs.
      this.log.warn("seat_session_book_unwritable", { path: this.path, error });
    }
  }

  async #rewrite(change: (records: Map<string, SessionRecord>) => void): Promise<void> {
    try {
      await this.writable();
      change(this.#records);
      await this.#file.write(Object.fromEntries(this.#records));
    } catch (error) {
      this.log.warn("seat_session_book_unwritable", { path: this.path, error });
    }
  }
}
