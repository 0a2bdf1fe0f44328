import { ForgeClient } from "./client.ts";
import { readAddress } from "./forge_address.ts";

/** Where this browser keeps the person's forge addresses. */
export const KEPT_KEY = "forge.forges";

/**
 * Every forge this page speaks to: one ForgeClient (one socket, its own reconnect rules) per
 * address, in the person's order. A forge that is down is that client's own state; the others
 * go on. The list is kept in local storage as the person edits it, and a page opened with
 * `?forge=` keeps its address in step so a reload holds the same list.
 */
export class Forges {
  readonly list: ForgeClient[] = [];
  #listeners = new Set<() => void>();
  #scheduled = false;

  constructor(
    urls: string[],
    private readonly opts: {
      base: string;
      /** Writes the list where it is kept (local storage, and the page's address). */
      keep?: (urls: string[]) => void;
    },
  ) {
    for (const url of urls) this.#open(url);
  }

  /** Dials every forge. */
  start(): void {
    for (const c of this.list) c.start();
  }

  byHost(host: string): ForgeClient | null {
    return this.list.find((c) => c.host === host) ?? null;
  }

  /** Adds a forge by the address a person typed; answers why not in words, or null. */
  add(input: string): string | null {
    const read = readAddress(input, this.opts.base);
    if (!read.ok) return read.why;
    if (this.byHost(read.host)) return `${read.host} is already in the list`;
    this.#open(read.url).start();
    this.#kept();
    return null;
  }

  /** Stops and forgets one forge (its socket closes; nothing of it stays drawn). */
  remove(host: string): void {
    const at = this.list.findIndex((c) => c.host === host);
    if (at < 0 || this.list.length === 1) return;
    const [gone] = this.list.splice(at, 1);
    gone.link.stop();
    this.#kept();
    this.#changed();
  }

  /** Any forge's store moved, or the list did: batched into one call a burst. */
  listen(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  #open(url: string): ForgeClient {
    const read = readAddress(url, this.opts.base);
    const c = new ForgeClient(read.ok ? read.url : url);
    c.store.listen(() => this.#changed());
    this.list.push(c);
    this.#changed();
    return c;
  }

  #kept(): void {
    this.opts.keep?.(this.list.map((c) => c.link.url));
  }

  #changed(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      for (const fn of this.#listeners) fn();
    });
  }
}
