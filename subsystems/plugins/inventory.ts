import type {
  ExtensionsRead,
  PluginsUpdateFields,
  PluginsUpdateName,
  PluginUpdateRun,
  PluginUpdateTrigger,
} from "../../protocol/mod.ts";
import { type Inventory, ScanFailure, scanInventory } from "./scan.ts";
import { Lock } from "../../server/lock.ts";

/** How the keeper reaches the rest of forge: the config dir, the binary, the update stream. */
export interface KeeperDeps {
  configDir(): string | null;
  claudePath(): string | null;
  pathEnv(): string;
  emit<N extends PluginsUpdateName>(name: N, fields: PluginsUpdateFields<N>): void;
  warn(event: string, fields: Record<string, unknown>): void;
}

/**
 * Holds the last good inventory and the last run, and answers the subject's read from them. A
 * rescan that sees a change pushes `plugins_inventory_updated`; one that cannot read the registry
 * pushes `plugins_inventory_refresh_failed` and keeps serving the last good inventory.
 * spec: extensions; "The read and the frames are one shape".
 */
export class InventoryKeeper {
  #current: Inventory | null = null;
  #shown = "";
  #scanned = false;
  #lock = new Lock();
  run: PluginUpdateRun | null = null;

  constructor(private readonly deps: KeeperDeps) {}

  /** The last good inventory (null before the first scan or with no plugins root). */
  get current(): Inventory | null {
    return this.#current;
  }

  /** The subject's read: the inventory (scanned first if it never was), the lsp rows, the run. */
  async read(): Promise<ExtensionsRead> {
    if (!this.#scanned) await this.refresh("manual");
    return {
      snapshot: this.deps.configDir() === null ? null : this.#current?.snapshot ?? null,
      lsp: this.#current?.lsp ?? [],
      update_run: this.run,
    };
  }

  /**
   * Rescans (one scan at a time, in call order) and pushes the inventory when it moved, or
   * `always` when a caller wants the frame regardless. Resolves to the inventory served after.
   */
  refresh(trigger: PluginUpdateTrigger, always = false): Promise<Inventory | null> {
    return this.#lock.run(() => this.#scan(trigger, always));
  }

  async #scan(trigger: PluginUpdateTrigger, always: boolean): Promise<Inventory | null> {
    const dir = this.deps.configDir();
    this.#scanned = true;
    if (dir === null) {
      this.#current = null;
      return null;
    }
    let found: Inventory;
    try {
      found = await scanInventory(dir, this.deps.pathEnv());
    } catch (err) {
      const message = err instanceof ScanFailure
        ? `the plugin inventory could not be read: ${err.message}`
        : `the plugin inventory scan failed inside forge; the log has the cause`;
      this.deps.warn("plugins_inventory_refresh_failed", { message, error: err });
      this.deps.emit("plugins_inventory_refresh_failed", { cwd_raw: dir, message, trigger });
      return this.#current;
    }
    const shown = JSON.stringify(found);
    // The first scan has no reader who saw an older one: the subscribe's snapshot carries it.
    const moved = this.#shown !== "" && shown !== this.#shown;
    this.#current = found;
    this.#shown = shown;
    if (moved || always) {
      this.deps.emit("plugins_inventory_updated", {
        cwd_raw: dir,
        snapshot: found.snapshot,
        lsp: found.lsp,
        claude_path: this.deps.claudePath() ?? "",
      });
    }
    return found;
  }
}
