/**
 * The one way forge keeps a file (docs/state.md). Every state file -
 * the board, the schedules, the books, the caches - is written and read through a `KeptFile`
 * this keeper hands out, and nothing else writes under the state dir.
 *
 * The contract:
 * - A write lands whole or not at all: the bytes go to `<name>.keeper-tmp`, which is fsynced,
 *   renamed over the file, and the directory is fsynced so the rename itself survives a power
 *   loss. Writes to one file are serialised; a crash at any moment leaves the old file or the
 *   new one, and at worst a temp file the next boot sweeps (`sweepTemps`).
 * - A write that fails (a full disk, a read-only mount) removes its temp file and rejects with a
 *   `StateWriteError` in forge's words (`the disk is full`); the engine's message is logged as
 *   `state_write_failed` with the path. The file on disk is the one before.
 * - A read answers `missing` (no file: the store starts empty), `read`, or `damaged`. A file
 *   that does not parse is NEVER read as empty and never overwritten: a copy is kept aside as
 *   `<name>.corrupt-<time>`, a `state_file_damaged` record names it, the keeper lists it
 *   (`damaged()`, which home's `fatal_error` carries) and every write to it is refused in words
 *   until a person mends or removes it. `writable()` reads a damaged file again before a change:
 *   once it parses (mended) or is gone (removed) the damage clears and the fresh read is handed
 *   back for the store to adopt.
 * - A file is written only over what the store last read or wrote. Each handle keeps the stat
 *   of that moment (inode, size, modification time) and the digest of those bytes; before a
 *   change and before a write one stat compares it with the disk, and when the stat matches the
 *   file's bytes are hashed against the digest (a same-size edit in place keeps the stat). A file
 *   that moved since (a person's edit, a disk that garbled it) or was never read is read again
 *   first: damaged, it goes the damaged way above; whole,
 *   `writable()` hands it to the store to adopt, and a `write()` that was not preceded by one is
 *   refused (`changed`) rather than put back what the store held over it.
 *
 * A new store asks `keeper.file(path, {area, parse})` (the Host carries the keeper as
 * `host.state`), reads once at open, calls `writable()` before each change and `write()` after.
 */
import { Lock } from "../lock.ts";
import type { Logger } from "../log.ts";
import {
  digestOf,
  keepAside,
  removeIfThere,
  sameSeen,
  type Seen,
  seenNow,
  TEMP_SUFFIX,
  writeWhole,
} from "./disk.ts";
import { ioWords, readWords } from "./words.ts";

export { schemaParse } from "./words.ts";
export { sweepTemps, TEMP_SUFFIX } from "./disk.ts";

/** What a read found. `damaged` carries the sentence a refusal and the area's error field show. */
export type KeptRead<T> =
  | { state: "missing" }
  | { state: "read"; value: T }
  | { state: "damaged"; why: string };

/** A file the keeper found damaged: where, which area, the copy kept aside and why. */
export interface Damage {
  path: string;
  area: string;
  /** The copy kept aside (`<name>.corrupt-<time>`); null when not even a copy could be made. */
  aside: string | null;
  why: string;
}

/**
 * A write refused (`damaged`: the file does not parse; `changed`: it parses but changed on disk
 * since the store read it) or failed on disk (`io`); its message is forge's own words.
 */
export class StateWriteError extends Error {
  constructor(
    readonly path: string,
    readonly reason: "damaged" | "changed" | "io",
    message: string,
  ) {
    super(message);
    this.name = "StateWriteError";
  }
}

export interface KeptFileOptions<T> {
  /** The area the file belongs to, as a person names it ("the board of alpha"). */
  area: string;
  /** Checks and converts the parsed JSON; throws a sentence in forge's words naming what is off. */
  parse: (raw: unknown) => T;
  /** The file's mode (0o600 for the vault's enrolments); the default follows the umask. */
  mode?: number;
  /** Indentation for a file people read; none by default. */
  indent?: number;
}

/** Hands out one `KeptFile` per path and keeps the list of damaged files. */
export class StateKeeper {
  readonly #files = new Map<string, KeptFile<unknown>>();
  readonly #damaged = new Map<string, Damage>();
  readonly #listeners = new Set<(damaged: Damage[]) => void>();

  constructor(readonly log: Logger, readonly now: () => number = Date.now) {}

  /** The one handle on `path`; a second ask for the same path answers the same handle. */
  file<T>(path: string, opts: KeptFileOptions<T>): KeptFile<T> {
    let kept = this.#files.get(path) as KeptFile<T> | undefined;
    if (!kept) {
      kept = new KeptFile(this, path, opts);
      this.#files.set(path, kept as KeptFile<unknown>);
    }
    return kept;
  }

  /** Every file found damaged and not yet mended or removed, oldest first. */
  damaged(): Damage[] {
    return [...this.#damaged.values()];
  }

  /** Runs `fn` with the damaged list each time it moves; answers the unsubscribe. */
  onDamage(fn: (damaged: Damage[]) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Resolves once every write queued on every file has settled. */
  async flushed(): Promise<void> {
    await Promise.all([...this.#files.values()].map((f) => f.flushed()));
  }

  /** @internal: a KeptFile reports its damage moving. */
  mark(path: string, damage: Damage | null): void {
    const had = this.#damaged.has(path);
    if (damage) this.#damaged.set(path, damage);
    else this.#damaged.delete(path);
    if (!had && !damage) return;
    const list = this.damaged();
    for (const fn of this.#listeners) {
      try {
        fn(list);
      } catch (error) {
        this.log.error("state_damage_listener_failed", { error });
      }
    }
  }

  /**
   * Writes `bytes` to `path` durably (temp, fsync, rename, fsync of the directory); the primitive
   * every kept file uses, and the one a store of raw bytes (a recording) calls itself. A `mode`
   * makes the file exactly that private, and a directory it creates 0700. Answers the stat of
   * what landed. Rejects with a `StateWriteError` in forge's words; the temp file never outlives
   * a failure.
   */
  async writeBytes(path: string, bytes: Uint8Array, mode?: number): Promise<Deno.FileInfo> {
    try {
      return await writeWhole(path, bytes, mode, this.log);
    } catch (error) {
      this.log.error("state_write_failed", { path, error });
      throw new StateWriteError(path, "io", `${path} could not be written: ${ioWords(error)}`);
    }
  }

  /** @internal: keeps a copy of a damaged file aside; the same bytes are kept once. */
  keepAside(path: string): Promise<string | null> {
    return keepAside(path, this.now(), this.log);
  }
}

/**
 * One state file: read once at open, written whole. See the module comment for the contract.
 */
export class KeptFile<T> {
  /** Writes to the file, one at a time in the order they were asked. */
  readonly #writes = new Lock();
  #damage: Damage | null = null;
  /** Whether a write was queued or the stale temp file already swept: sweep once, before any. */
  #swept = false;
  /**
   * The file as the store last took it in (its read) or put it out (its write); null before
   * either. A write over anything else would put back what the store holds over bytes it never
   * saw, so the file is read again first.
   */
  #seen: Seen | null = null;
  /** The digest of the bytes `#seen` was taken of; null where there were none (missing). */
  #digest: string | null = null;

  constructor(
    private readonly keeper: StateKeeper,
    readonly path: string,
    private readonly opts: KeptFileOptions<T>,
  ) {}

  get area(): string {
    return this.opts.area;
  }

  /** The refusal's words while the file is damaged; null while it may be written. */
  get damage(): string | null {
    return this.#damage ? refusalWords(this.#damage) : null;
  }

  /**
   * Reads the file (a stale temp file of a crashed write is removed first), as what the store
   * now holds. A file that does not parse is kept aside, logged and listed, and answered as
   * `damaged`, never as empty.
   */
  async read(): Promise<KeptRead<T>> {
    const { got, seen, digest } = await this.#examine();
    this.#seen = got.state === "damaged" ? null : seen;
    this.#digest = digest;
    return got;
  }

  /**
   * Before a change: null when the file may be written as the store holds it - it is as the
   * store last read or wrote it (a stat and a digest of its bytes, no parse), or it is not there
   * (a store that held something writes it back). Otherwise the file is read again: damaged (whether it was
   * already, or broke on disk since, or was never read) throws the refusal (`StateWriteError`,
   * reason `damaged`) after keeping it aside; one that parses - mended, or changed on disk by
   * someone else - is answered for the store to adopt first, so its change lands on top of what
   * the file holds and nothing written there is lost. A damaged file since removed answers
   * `missing`: the store starts empty.
   */
  async writable(): Promise<KeptRead<T> | null> {
    // A write still landing would look like a change made by someone else.
    await this.#writes.idle();
    const wasDamaged = this.#damage !== null;
    if (!wasDamaged && await this.#unchanged()) return null;
    const got = await this.read();
    if (got.state === "damaged") throw new StateWriteError(this.path, "damaged", got.why);
    if (got.state === "missing" && !wasDamaged) return null;
    return got;
  }

  /**
   * Queues a durable write of `value`; resolves once it (and every write before it) landed. A
   * failed write rejects its caller (it was logged); the writes queued after it go on. The file
   * must still be as the store last read or wrote it (or not there): one that changed on disk
   * since is read again and never written over - damaged, it is refused as `damaged` (kept
   * aside, logged, listed); whole, as `changed`, for the store's next `writable()` to adopt.
   */
  write(value: T): Promise<void> {
    const text = JSON.stringify(value, null, this.opts.indent);
    this.#swept = true;
    return this.#writes.run(async () => {
      if (!this.#damage && !(await this.#unchanged())) {
        // Read again but not taken in: the value was made from what the store held before.
        const { got } = await this.#examine();
        if (got.state === "read") {
          throw new StateWriteError(this.path, "changed", changedWords(this.path, this.area));
        }
      }
      if (this.#damage) {
        throw new StateWriteError(this.path, "damaged", refusalWords(this.#damage));
      }
      const bytes = new TextEncoder().encode(text);
      this.#seen = await this.keeper.writeBytes(this.path, bytes, this.opts.mode);
      this.#digest = await digestOf(bytes);
    });
  }

  /** Resolves once every queued write has settled. */
  async flushed(): Promise<void> {
    await this.#writes.idle();
  }

  /**
   * Whether the file is as the store last read or wrote it, or not there: a stat, and when the
   * stat matches, the bytes against their digest - the same inode, size and modification time
   * still hide a same-size edit made within the tick of forge's own write.
   */
  async #unchanged(): Promise<boolean> {
    const now = await seenNow(this.path);
    if (now === "missing") return true;
    if (now === null || this.#seen === null || !sameSeen(now, this.#seen)) return false;
    return this.#digest !== null && await this.#digestNow() === this.#digest;
  }

  /** The digest of the file's bytes now; null when they cannot be read (the re-read says why). */
  async #digestNow(): Promise<string | null> {
    try {
      return await digestOf(await Deno.readFile(this.path));
    } catch {
      // A probe: an unreadable file is not unchanged, and the read that follows names why.
      return null;
    }
  }

  /**
   * Reads and judges the file, and what it was when looked at (a stat before the read, so a
   * change during the read shows later as a change). Damage is kept aside, logged and listed
   * (each distinct damage once); a damaged file that parses again, or is gone, is mended.
   */
  async #examine(): Promise<{ got: KeptRead<T>; seen: Seen | null; digest: string | null }> {
    if (!this.#swept) {
      this.#swept = true;
      await removeIfThere(this.path + TEMP_SUFFIX, this.keeper.log);
    }
    const seen = await seenNow(this.path);
    const { got, digest } = await this.#load();
    if (got.state !== "damaged") {
      if (this.#damage) this.#mended(got.state === "missing" ? "removed" : "mended");
      return { got, seen, digest };
    }
    // Every damaged version is kept aside (the same bytes once); each new one is told.
    const aside = await this.keeper.keepAside(this.path);
    if (this.#damage?.why !== got.why || this.#damage.aside !== aside) {
      this.#damage = { path: this.path, area: this.opts.area, aside, why: got.why };
      this.keeper.log.error("state_file_damaged", { ...this.#damage });
      this.keeper.mark(this.path, this.#damage);
    }
    return { got: { state: "damaged", why: refusalWords(this.#damage) }, seen, digest };
  }

  /** Reads and parses the file, with the digest of the bytes read (null when none were). */
  async #load(): Promise<{ got: KeptRead<T>; digest: string | null }> {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await Deno.readFile(this.path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return { got: { state: "missing" }, digest: null };
      this.keeper.log.warn("state_read_failed", { path: this.path, error: err });
      return { got: { state: "damaged", why: readWords(err) }, digest: null };
    }
    return { got: this.#parse(bytes), digest: await digestOf(bytes) };
  }

  #parse(bytes: Uint8Array): KeptRead<T> {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (err) {
      if (err instanceof TypeError) return { state: "damaged", why: "it is not UTF-8 text" };
      throw err;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // The parser's own words stay out: what a person needs is that the JSON is not whole.
      return { state: "damaged", why: text.trim() === "" ? "it is empty" : "it is not whole JSON" };
    }
    try {
      return { state: "read", value: this.opts.parse(raw) };
    } catch (err) {
      return { state: "damaged", why: (err as Error).message };
    }
  }

  #mended(how: "mended" | "removed"): void {
    this.keeper.log.info("state_file_mended", { path: this.path, area: this.opts.area, how });
    this.#damage = null;
    this.keeper.mark(this.path, null);
  }
}

/** The refusal of a write over a file that changed on disk since the store read it. */
function changedWords(path: string, area: string): string {
  return `${path} changed on disk since forge read it; forge wrote nothing over it and reads it ` +
    `again before the next change to ${area}`;
}

/** The sentence a refusal, a log record and an area's error field carry for a damaged file. */
export function refusalWords(d: Damage): string {
  const kept = d.aside ? `forge kept a copy at ${d.aside} and` : "forge";
  return `${d.path} did not parse (${d.why}); ${kept} changes nothing in ${d.area} until the ` +
    `file is mended or removed`;
}
