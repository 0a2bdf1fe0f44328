import { type Damage, refusalWords, type StateKeeper } from "./keeper.ts";
import { ioWords } from "./words.ts";

/**
 * An append-only file of JSON lines the keeper keeps (the gateway's request ledger): one record
 * a line, appended with one write, rolled once to `.1` past `rollBytes`. A crash can tear only
 * the last line, which is the crash's mark and not damage: `open` ends a tail with no newline
 * (a whole record gets its newline; torn bytes are cut, a copy of the file kept aside first) so
 * the next append starts on a line of its own. A line before the tail that does
 * not parse IS damage, handled as every kept file's: a copy kept aside, a `state_file_damaged`
 * record, the keeper's damaged list, and appends refused until the file is mended or removed
 * (`open` again reads it afresh).
 */
export class KeptLog {
  #file: Deno.FsFile | null = null;
  #size = 0;
  #damage: Damage | null = null;
  #failing = false;

  constructor(
    private readonly keeper: StateKeeper,
    readonly path: string,
    private readonly opts: { area: string; line: (raw: unknown) => boolean; rollBytes: number },
  ) {}

  /** The refusal's words while the log is damaged; null while it takes appends. */
  get damage(): string | null {
    return this.#damage ? refusalWords(this.#damage) : null;
  }

  /**
   * Reads the log at boot, before any append (the rolled copy first): a torn tail is cut, and a
   * damaged file is reported and refuses appends. Called again, it looks whether a damaged file
   * was mended or removed.
   */
  async open(): Promise<unknown[]> {
    this.#close();
    await Deno.mkdir(this.path.replace(/\/[^/]*$/, ""), { recursive: true });
    const rolled = await this.#lines(`${this.path}.1`, false);
    const current = await this.#lines(this.path, true);
    if (rolled.bad || current.bad) {
      const path = current.bad ? this.path : `${this.path}.1`;
      if (this.#damage?.path !== path) {
        const aside = await this.keeper.keepAside(path);
        this.#damage = { path, area: this.opts.area, aside, why: "a line in it is not a record" };
        this.keeper.log.error("state_file_damaged", { ...this.#damage });
        this.keeper.mark(this.path, this.#damage);
      }
      return [...rolled.records, ...current.records];
    }
    if (this.#damage) {
      this.keeper.log.info("state_file_mended", { path: this.path, area: this.opts.area });
      this.#damage = null;
      this.keeper.mark(this.path, null);
    }
    return [...rolled.records, ...current.records];
  }

  /** The records as they stand (the rolled copy first); a torn or bad line is skipped. */
  async records(): Promise<unknown[]> {
    const rolled = await this.#lines(`${this.path}.1`, false);
    const current = await this.#lines(this.path, false);
    return [...rolled.records, ...current.records];
  }

  /** Appends one record; a refused or failed append is logged and answered false. */
  append(record: unknown): boolean {
    if (this.#damage) return false;
    const bytes = new TextEncoder().encode(JSON.stringify(record) + "\n");
    try {
      if (this.#size + bytes.length > this.opts.rollBytes && this.#size > 0) {
        this.#close();
        Deno.renameSync(this.path, `${this.path}.1`);
        this.#size = 0;
      }
      this.#file ??= Deno.openSync(this.path, { append: true, create: true });
      for (let off = 0; off < bytes.length;) off += this.#file.writeSync(bytes.subarray(off));
      this.#size += bytes.length;
      this.#failing = false;
      return true;
    } catch (error) {
      this.#close();
      // One record per failure streak: a full disk must not flood the log it shares.
      if (!this.#failing) {
        this.keeper.log.error("state_write_failed", {
          path: this.path,
          why: ioWords(error),
          error,
        });
      }
      this.#failing = true;
      return false;
    }
  }

  async #lines(path: string, trimTail: boolean) {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        this.keeper.log.warn("state_read_failed", { path, error });
      }
      return { records: [] as unknown[], bad: false };
    }
    // Offsets are the file's bytes: a decoded text's length differs wherever a byte is not UTF-8.
    let end = bytes.lastIndexOf(0x0a) + 1;
    if (end < bytes.length && trimTail) end = await this.#mendTail(path, bytes, end);
    if (trimTail) this.#size = end;
    const records: unknown[] = [];
    let bad = false;
    for (const line of lineTexts(bytes.subarray(0, end))) {
      const raw = line === null ? undefined : this.#record(line);
      if (raw === undefined) bad = true; // the file's damage, reported as a whole
      else if (raw !== null) records.push(raw);
    }
    return { records, bad };
  }

  /**
   * The log ends in bytes with no newline: a crash mid-append. When they are a whole record (the
   * crash came between a record and its newline) the newline is added and the record kept;
   * otherwise a copy of the file is kept aside first, then the torn bytes are cut so the next
   * record starts on a line of its own. Answers where the whole lines now end.
   */
  async #mendTail(path: string, bytes: Uint8Array, end: number): Promise<number> {
    const tail = utf8(bytes.subarray(end));
    const whole = tail !== null && this.#record(tail);
    if (whole) {
      await Deno.writeFile(path, new Uint8Array([0x0a]), { append: true });
      this.keeper.log.warn("state_log_tail_mended", { path, bytes: bytes.length - end });
      return bytes.length + 1;
    }
    const aside = await this.keeper.keepAside(path);
    await Deno.truncate(path, end);
    this.keeper.log.warn("state_log_tail_trimmed", { path, bytes: bytes.length - end, aside });
    return end;
  }

  /** A line's record: null for a blank line, undefined for one that is not a record. */
  #record(line: string): unknown {
    if (line === "") return null;
    try {
      const raw = JSON.parse(line);
      return this.opts.line(raw) ? raw : undefined;
    } catch {
      // Not JSON: the caller counts it as damage.
      return undefined;
    }
  }

  #close(): void {
    try {
      this.#file?.close();
    } catch (error) {
      this.keeper.log.debug("state_log_close_failed", { path: this.path, error });
    }
    this.#file = null;
  }
}

const STRICT = new TextDecoder("utf-8", { fatal: true });

/** Bytes as UTF-8 text, or null where they are not UTF-8. */
function utf8(bytes: Uint8Array): string | null {
  try {
    return STRICT.decode(bytes);
  } catch {
    // Not UTF-8: the caller reads it as a line that is not a record.
    return null;
  }
}

/** Each line's text (null for one that is not UTF-8); the last may lack its newline. */
function* lineTexts(bytes: Uint8Array): Generator<string | null> {
  for (let at = 0; at < bytes.length;) {
    const nl = bytes.indexOf(0x0a, at);
    const stop = nl < 0 ? bytes.length : nl;
    yield utf8(bytes.subarray(at, stop));
    at = stop + 1;
  }
}
