/**
 * One JSON document the board keeps in forge's state dir, written so a crash never leaves a
 * half-written file behind (temp file, fsync, rename, fsync of the directory) and read so a file
 * that does not parse is never taken for an empty one: `read` answers `{state: "unreadable"}`
 * with the reason, and the caller refuses to write over it. Writes are serialised.
 */
export type DurableRead<T> =
  | { state: "missing" }
  | { state: "read"; value: T }
  | { state: "unreadable"; why: string };

export class DurableJson<T> {
  #writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    /** Checks and converts the parsed JSON; throws a sentence naming what is wrong. */
    private readonly parse: (raw: unknown) => T,
  ) {}

  get dir(): string {
    return this.path.replace(/\/[^/]*$/, "");
  }

  async read(): Promise<DurableRead<T>> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return { state: "missing" };
      return { state: "unreadable", why: `${this.path} cannot be read: ${(err as Error).message}` };
    }
    try {
      return { state: "read", value: this.parse(JSON.parse(text)) };
    } catch (err) {
      const why = err instanceof SyntaxError ? "it is not whole JSON" : (err as Error).message;
      return {
        state: "unreadable",
        why: `${this.path} is damaged (${why}); forge leaves it as is`,
      };
    }
  }

  /** Queues a durable write of `value`; resolves once it (and every write before it) landed. */
  write(value: T): Promise<void> {
    const text = JSON.stringify(value);
    const next = this.#writing.then(() => this.#write(text));
    // A failed write is the caller's to report; the queue itself carries on.
    this.#writing = next.catch(() => {});
    return next;
  }

  async #write(text: string): Promise<void> {
    await Deno.mkdir(this.dir, { recursive: true });
    const tmp = `${this.path}.tmp`;
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    try {
      const bytes = new TextEncoder().encode(text);
      let off = 0;
      while (off < bytes.length) off += await file.write(bytes.subarray(off));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, this.path);
    // The rename itself is durable once the directory entry is on disk.
    const dir = await Deno.open(this.dir, { read: true });
    try {
      await dir.sync();
    } catch {
      // Some filesystems refuse fsync on a directory; the rename is still atomic there.
    } finally {
      dir.close();
    }
  }

  flushed(): Promise<void> {
    return this.#writing;
  }
}
