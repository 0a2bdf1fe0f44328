import type { SettingsDocument, Wire } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import { readWords } from "../state/words.ts";
import { buildDocument } from "./document.ts";
import { ConfigError, loadConfigFile, loadConfigText, type LoadedConfig } from "./load.ts";
import type { AreaSpec } from "./spec.ts";
import type { ForgeConfig } from "./types.ts";
import { sweepSaveTemps } from "./write/writer.ts";

export interface ReloadChange {
  path: string;
  class: string;
  before: Wire | undefined;
  after: Wire | undefined;
}

/**
 * The config in force: the last good load, its settings document (built once per load and
 * shared by every connection), and the file watch. A reload that fails keeps the last good
 * config and logs why; one that applies logs what changed by class and tells the listeners.
 * spec: The effective config.
 */
export class ConfigStore {
  #loaded: LoadedConfig;
  #document: SettingsDocument;
  /** The document the server was built from: what a restart-class key still serves. */
  readonly #boot: SettingsDocument;
  #failure: string | null = null;
  #listeners = new Set<(doc: SettingsDocument, changes: ReloadChange[]) => void>();
  #failureListeners = new Set<(message: string | null) => void>();
  #watcher: Deno.FsWatcher | null = null;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #rewatch: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  private constructor(
    loaded: LoadedConfig,
    readonly areas: AreaSpec[],
    readonly version: string,
    readonly log: Logger,
  ) {
    this.#loaded = loaded;
    this.#document = buildDocument(loaded, areas, version);
    this.#boot = this.#document;
  }

  static async open(
    path: string,
    areas: AreaSpec[],
    version: string,
    log: Logger,
  ): Promise<ConfigStore> {
    // A save a crash cut short left its temp file beside the config: gone before the first read.
    const swept = await sweepSaveTemps(path).catch((error) => {
      log.warn("config_temps_unswept", { path, error });
      return [];
    });
    if (swept.length > 0) log.info("config_temps_swept", { removed: swept });
    return new ConfigStore(await loadConfigFile(path, areas), areas, version, log);
  }

  get loaded(): LoadedConfig {
    return this.#loaded;
  }
  get config(): ForgeConfig {
    return this.#loaded.config;
  }
  get document(): SettingsDocument {
    return this.#document;
  }
  /** Why the file on disk does not load right now, or null when the last read loaded. */
  get failure(): string | null {
    return this.#failure;
  }

  /**
   * Hears every change of `failure`: the loader's message when a reload fails (the last good
   * config stays in force), and null when a later reload loads again.
   */
  onFailure(fn: (message: string | null) => void): () => void {
    this.#failureListeners.add(fn);
    return () => this.#failureListeners.delete(fn);
  }

  #setFailure(message: string | null): void {
    if (message === this.#failure) return;
    this.#failure = message;
    for (const fn of this.#failureListeners) fn(message);
  }

  /** The writer's validator: the boot loader's own message, or null when the text loads. */
  validate(text: string): string | null {
    try {
      loadConfigText(text, this.#loaded.path, this.areas);
      return null;
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      this.log.warn("config_validate_failed", { error: err });
      return "the loader failed on the candidate; the log has the cause";
    }
  }

  onReload(fn: (doc: SettingsDocument, changes: ReloadChange[]) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Re-reads the file now. Returns the changes applied, or null when the load failed or nothing moved. */
  async reload(): Promise<ReloadChange[] | null> {
    let next: LoadedConfig;
    try {
      next = await loadConfigFile(this.#loaded.path, this.areas);
    } catch (err) {
      const why = err instanceof ConfigError
        ? err.message
        : `forge.toml could not be read: ${readWords(err)}`;
      this.log.warn("config_reload_failed", { path: this.#loaded.path, why, error: err });
      this.#setFailure(why);
      return null;
    }
    this.#setFailure(null);
    if (next.fingerprint === this.#loaded.fingerprint && next.exists === this.#loaded.exists) {
      return null;
    }
    const doc = markRestartPending(buildDocument(next, this.areas, this.version), this.#boot);
    const changes = diffDocuments(this.#document, doc);
    this.#loaded = next;
    this.#document = doc;
    const byClass: Record<string, string[]> = {};
    for (const c of changes) (byClass[c.class] ??= []).push(c.path);
    // The summary names keys and classes, never values: values can be secrets.
    this.log.info("config_reload", {
      path: next.path,
      fingerprint: next.fingerprint,
      changed: byClass,
    });
    // Each listener hears it whatever the one before did: a subsystem whose reload hook throws
    // must not keep the new settings frame from the clients, nor the reload from the others.
    for (const fn of this.#listeners) {
      try {
        fn(doc, changes);
      } catch (error) {
        this.log.error("config_reload_listener_failed", { error });
      }
    }
    return changes;
  }

  /**
   * Watches the file's directory (editors replace files by rename), debounced. A watch that dies
   * (an error, or its stream ending while forge runs) is logged with its cause and started again
   * after `retryMs`, doubling to a minute, with a reload so nothing it missed stays unread.
   */
  watch(opts: { watchFs?: typeof Deno.watchFs; retryMs?: number } = {}): void {
    const watchFs = opts.watchFs ?? Deno.watchFs;
    const first = opts.retryMs ?? 1_000;
    let retry = first;
    const dir = this.#loaded.path.replace(/\/[^/]*$/, "") || ".";
    const name = this.#loaded.path.slice(dir.length + 1);
    const died = (error: unknown) => {
      if (this.#closed) return;
      this.log.warn("config_watch_died", { dir, error, retry_ms: retry });
      this.#rewatch = setTimeout(() => {
        start();
        void this.reload();
      }, retry);
      retry = Math.min(retry * 2, 60_000);
    };
    const start = () => {
      if (this.#closed) return;
      let watcher: Deno.FsWatcher;
      try {
        watcher = this.#watcher = watchFs(dir, { recursive: false });
      } catch (err) {
        return died(err);
      }
      (async () => {
        for await (const event of watcher) {
          retry = first;
          if (!event.paths.some((p) => p.endsWith("/" + name))) continue;
          clearTimeout(this.#debounce);
          this.#debounce = setTimeout(() => this.reload(), 50);
        }
      })().then(() => died(new Error("the watch ended")), died);
    };
    start();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#debounce);
    clearTimeout(this.#rewatch);
    try {
      this.#watcher?.close();
    } catch (error) {
      // Closed already (the watch died): nothing is left to close.
      this.log.debug("config_watch_closed_twice", { error });
    }
  }
}

/**
 * Marks each restart-class key whose value differs from the one the server was built with: it
 * carries `in_force`, the value still serving (null when the key was not there at boot), so a
 * page can say "restart to apply" while the old port still serves.
 */
export function markRestartPending(
  doc: SettingsDocument,
  boot: SettingsDocument,
): SettingsDocument {
  const booted = new Map(boot.areas.flatMap((a) => a.keys.map((k) => [k.path, k.value] as const)));
  return {
    ...doc,
    areas: doc.areas.map((area) => ({
      ...area,
      keys: area.keys.map((key) => {
        if (key.class !== "restart") return key;
        const was = booted.has(key.path) ? booted.get(key.path)! : null;
        return JSON.stringify(was) === JSON.stringify(key.value) ? key : { ...key, in_force: was };
      }),
    })),
  };
}

/** Every key whose value moved, added or went away, by concrete path. */
export function diffDocuments(before: SettingsDocument, after: SettingsDocument): ReloadChange[] {
  const index = (doc: SettingsDocument) =>
    new Map(doc.areas.flatMap((a) => a.keys.map((k) => [k.path, k] as const)));
  const a = index(before);
  const b = index(after);
  const out: ReloadChange[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(path);
    const y = b.get(path);
    if (JSON.stringify(x?.value) !== JSON.stringify(y?.value)) {
      out.push({ path, class: (y ?? x)!.class, before: x?.value, after: y?.value });
    }
  }
  return out;
}
