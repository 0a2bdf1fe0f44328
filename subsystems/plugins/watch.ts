/**
 * Follows the plugins root on disk: the config dir itself (not recursively: `settings.json`, and
 * `plugins/` appearing) and `plugins/` recursively. A burst of events (a CLI install writes dozens
 * of files) becomes one call of `onChange` once the disk has been quiet for `quietMs`, and at most
 * `maxWaitMs` after the first event. spec: issue "The inventory follows the disk".
 */
export class PluginsWatcher {
  #watchers: Deno.FsWatcher[] = [];
  #pluginsWatched = false;
  #quiet: ReturnType<typeof setTimeout> | null = null;
  #first = 0;
  #stopped = false;

  constructor(
    private readonly configDir: string,
    private readonly onChange: () => void,
    private readonly opts: { quietMs: number; maxWaitMs: number } = {
      quietMs: 250,
      maxWaitMs: 2000,
    },
  ) {}

  /** Starts (or re-arms, when `plugins/` appeared since) the watches; idempotent. */
  arm(): void {
    if (this.#stopped) return;
    if (this.#watchers.length === 0) this.#open(this.configDir, false);
    if (!this.#pluginsWatched) this.#pluginsWatched = this.#open(`${this.configDir}/plugins`, true);
  }

  #open(path: string, recursive: boolean): boolean {
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(path, { recursive });
    } catch {
      return false; // absent yet: the config dir's watch (or the next action) re-arms it
    }
    this.#watchers.push(watcher);
    (async () => {
      try {
        for await (const event of watcher) {
          if (!recursive && !event.paths.some((p) => /\/(settings\.json|plugins)$/.test(p))) {
            continue;
          }
          if (!recursive && !this.#pluginsWatched) this.arm();
          this.#poke();
        }
      } catch {
        // the watcher closed under us (stop, or its directory vanished)
      }
      if (recursive && !this.#stopped) {
        this.#pluginsWatched = false; // plugins/ was removed: watch for it to come back
        this.#watchers = this.#watchers.filter((w) => w !== watcher);
      }
    })();
    return true;
  }

  #poke(): void {
    const now = performance.now();
    if (this.#quiet === null) this.#first = now;
    else clearTimeout(this.#quiet);
    const wait = Math.max(0, Math.min(this.opts.quietMs, this.#first + this.opts.maxWaitMs - now));
    this.#quiet = setTimeout(() => {
      this.#quiet = null;
      if (!this.#stopped) this.onChange();
    }, wait);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#quiet !== null) clearTimeout(this.#quiet);
    for (const w of this.#watchers) {
      try {
        w.close();
      } catch { /* already closed */ }
    }
    this.#watchers = [];
  }
}
