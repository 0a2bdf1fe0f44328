import { type Damage, refusalWords, type StateKeeper } from "./keeper.ts";
import { ioWords } from "./words.ts";

/**
 * An append-only file of JSON lines the keeper keeps (the gateway's request ledger): one record
 * a line, appended with one write, rolled once to `.1` past `rollBytes`. A crash can tear only
 * the last line, which is the crash's mark and not damage: `open` cuts a tail with no newline
 * off (logged) so the next append starts on a line of its own. A line before the tail that does
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
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        this.keeper.log.warn("state_read_failed", { path, error });
      }
      return { records: [] as unknown[], bad: false };
    }
    const end = text.lastIndexOf("\n") + 1;
    if (end < text.length && trimTail) {
      // A torn last line: a crash mid-append. Cut it so the next record starts whole.
      await Deno.truncate(path, new TextEncoder().encode(text.slice(0, end)).length);
      this.keeper.log.warn("state_log_tail_trimmed", { path, bytes: text.length - end });
    }
    if (trimTail) this.#size = new TextEncoder().encode(text.slice(0, end)).length;
    const records: unknown[] = [];
    let bad = false;
    for (const line of text.slice(0, end).split("\n")) {
      if (!line) continue;
      try {
        const raw = JSON.parse(line);
        if (this.opts.line(raw)) records.push(raw);
        else bad = true;
      } catch {
        // Counted, not passed on: a bad line is the file's damage, reported as a whole.
        bad = true;
      }
    }
    return { records, bad };
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
