import type { Logger } from "../../log.ts";

/**
 * One small JSON file the seats keep in forge's state dir (the pid book, the session book):
 * reads that treat a missing file as empty and log any other failure, and writes that are
 * serialised and atomic (temp + rename). A file that cannot be read or written is logged under
 * the caller's event names and never stops a seat.
 */
export class JsonFile {
  #writing: Promise<void> = Promise.resolve();

  constructor(
    readonly dir: string,
    readonly name: string,
    private readonly log: Logger,
    private readonly events: { unreadable: string; unwritable: string },
  ) {}

  get path(): string {
    return `${this.dir}/${this.name}`;
  }

  /** The parsed content; undefined when there is no file or it cannot be read. */
  async read(): Promise<unknown> {
    try {
      return JSON.parse(await Deno.readTextFile(this.path));
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        this.log.warn(this.events.unreadable, { path: this.path, error: err });
      }
      return undefined;
    }
  }

  /** Queues a write of `text`; resolves once it (and every write before it) has landed. */
  write(text: string): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      try {
        await Deno.mkdir(this.dir, { recursive: true });
        const tmp = `${this.path}.tmp`;
        await Deno.writeTextFile(tmp, text);
        await Deno.rename(tmp, this.path);
      } catch (err) {
        this.log.warn(this.events.unwritable, { path: this.path, error: err });
      }
    });
    return this.#writing;
  }

  /** Resolves once every queued write has landed. */
  flushed(): Promise<void> {
    return this.#writing;
  }
}
