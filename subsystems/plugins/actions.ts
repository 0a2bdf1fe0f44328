import { isEngineError } from "../../server/subsystem.ts";
import type { InstalledPlugin, PluginUpdateRun, PluginUpdateTrigger } from "../../protocol/mod.ts";
import { Refusal } from "../../server/subsystem.ts";
import { type CliOutcome, type CliTarget, runPluginCli } from "./cli.ts";
import type { InventoryKeeper, KeeperDeps } from "./inventory.ts";
import { redactUrls } from "./files.ts";
import { checkRows, queuedRows, rowAfterUpdate } from "./run_rows.ts";
import type { Inventory } from "./scan.ts";

export interface ActionDeps {
  keeper: InventoryKeeper;
  /** Where the CLI runs; null when no plugins root resolves. */
  target(): CliTarget | null;
  emit: KeeperDeps["emit"];
  log(event: string, fields: Record<string, unknown>): void;
}

/**
 * The six plugin actions over the real CLI (spec: "What is not here" > the six actions), one at a
 * time: a second one while one runs is refused in words. Each public method checks its input
 * (throwing a `Refusal` before anything runs), then starts the work and resolves; `settled`
 * resolves when that work has finished and its frames are out.
 */
export class PluginActions {
  #busy: string | null = null;
  settled: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ActionDeps) {}

  /** The action in flight, if any. */
  get busy(): string | null {
    return this.#busy;
  }

  install(pluginId: string): Promise<void> {
    return this.#start("plugin_install", (inv) => {
      const market = marketOf("plugin_install", pluginId);
      if (!inv.snapshot.marketplaces.some((m) => m.name === market)) {
        throw new Refusal(
          "plugin_install",
          `plugin_install: no marketplace named ${market} is configured`,
        );
      }
      return () => this.#cliAction(["install", pluginId, "--scope", "user"]);
    });
  }

  addMarketplace(source: string): Promise<void> {
    return this.#start("plugin_marketplace_add", () => {
      if (source.trim() === "") {
        throw new Refusal("plugin_marketplace_add", "plugin_marketplace_add: source is empty");
      }
      if (source.trim().startsWith("-")) {
        // The CLI would read it as one of its own flags.
        throw new Refusal(
          "plugin_marketplace_add",
          `plugin_marketplace_add: a source cannot start with "-" (\`${source.trim()}\`)`,
        );
      }
      return () => this.#cliAction(["marketplace", "add", source.trim()]);
    });
  }

  /** Deletes a cloned marketplace's clone (only under plugins/marketplaces/), then updates it. */
  repairMarketplace(name: string): Promise<void> {
    return this.#start("plugin_marketplace_repair", (inv, target) => {
      const source = inv.snapshot.marketplaces.find((m) => m.name === name);
      if (!source) {
        throw new Refusal(
          "plugin_marketplace_repair",
          `plugin_marketplace_repair: no marketplace named ${name} is configured`,
        );
      }
      const clone = source.install_location ?? "";
      // Only a clone the CLI keeps under plugins/marketplaces/ is ever deleted.
      const ours = source.source !== "directory" && !clone.split("/").includes("..") &&
        clone.startsWith(`${target.configDir}/plugins/marketplaces/`);
      return async () => {
        // Measured: a corrupt clone is not fixed by update alone; deleting it re-clones.
        if (ours) await Deno.remove(clone, { recursive: true }).catch(() => {});
        await this.#cliAction(["marketplace", "update", name]);
      };
    });
  }

  updateOne(pluginId: string, scope?: string): Promise<void> {
    return this.#start("plugin_update", (inv) => {
      const rows = inv.snapshot.installed.filter((r) =>
        r.id === pluginId && (scope === undefined || r.scope === scope)
      );
      if (rows.length === 0) {
        const at = scope ? ` at scope ${scope}` : "";
        throw new Refusal("plugin_update", `plugin_update: ${pluginId} is not installed${at}`);
      }
      return () => this.#updateRun("manual", rows, inv);
    });
  }

  updateAll(trigger: PluginUpdateTrigger): Promise<void> {
    return this.#start(
      "plugin_update_all",
      (inv) => () => this.#updateRun(trigger, inv.snapshot.installed, inv),
    );
  }

  checkUpdates(): Promise<void> {
    return this.#start("plugin_check_updates", (inv) => () => this.#checkRun(inv));
  }

  async #start(
    what: string,
    plan: (
      inv: Inventory,
      target: CliTarget,
    ) => (() => Promise<void>) | Promise<() => Promise<void>>,
  ): Promise<void> {
    if (this.#busy) {
      throw new Refusal(
        what,
        `${what}: ${this.#busy} is still running; one plugin action runs at a time`,
      );
    }
    this.#busy = what;
    try {
      const target = this.deps.target();
      if (!target) {
        throw new Refusal(
          what,
          `${what}: no plugins root resolves (no account config_dir, $CLAUDE_CONFIG_DIR or $HOME)`,
        );
      }
      const inv = await this.deps.keeper.refresh("manual");
      if (!inv) throw new Refusal(what, `${what}: the plugin inventory could not be read`);
      const work = await plan(inv, target);
      this.settled = work().catch((err) => {
        this.deps.log("plugins_action_crashed", { what, error: err });
        this.deps.emit("plugins_cli_action_failed", {
          cwd_raw: target.configDir,
          message: `${what} stopped: ${
            isEngineError(err)
              ? "it failed inside forge; the log has the cause"
              : (err as Error).message
          }`,
        });
      }).finally(() => this.#busy = null);
    } catch (err) {
      this.#busy = null;
      throw err;
    }
  }

  async #cli(args: string[]): Promise<CliOutcome> {
    const out = await runPluginCli(this.deps.target()!, args);
    this.deps.log("plugins_cli", {
      args: redactUrls(args.join(" ")),
      ok: out.ok,
      code: out.failureCode,
      ...(out.ok || !out.stderr ? {} : { stderr: out.stderr }),
    });
    return out;
  }

  async #cliAction(args: string[]): Promise<void> {
    const cwd = this.deps.target()!.configDir;
    const out = await this.#cli(args);
    const inv = await this.deps.keeper.refresh("manual");
    if (!out.ok) {
      // spec: the core's own words for a press that ran and failed: here, the CLI's.
      this.deps.emit("plugins_cli_action_failed", { cwd_raw: cwd, message: out.message });
      return;
    }
    const claude = this.deps.target()!.bin ?? "";
    this.deps.emit("plugins_cli_action_succeeded", {
      cwd_raw: cwd,
      result: { snapshot: inv!.snapshot, message: out.message, claude_path: claude },
    });
  }

  #publish(run: PluginUpdateRun): void {
    const copy = structuredClone(run);
    this.deps.keeper.run = copy;
    this.deps.emit("plugins_update_run_progress", {
      cwd_raw: this.deps.target()!.configDir,
      run: copy,
    });
  }

  /** `claude plugin marketplace update` once per marketplace; the failures' words by name. */
  async #refreshMarkets(names: string[]): Promise<Map<string, string>> {
    const failed = new Map<string, string>();
    for (const name of [...new Set(names)]) {
      const out = await this.#cli(["marketplace", "update", name]);
      if (!out.ok) failed.set(name, out.message);
    }
    return failed;
  }

  async #finish(run: PluginUpdateRun, trigger: PluginUpdateTrigger): Promise<void> {
    const inv = await this.deps.keeper.refresh(trigger);
    run.finished = true;
    this.deps.keeper.run = structuredClone(run);
    const target = this.deps.target()!;
    this.deps.emit("plugins_update_run_finished", {
      cwd_raw: target.configDir,
      run: structuredClone(run),
      snapshot: inv?.snapshot ?? null,
      claude_path: target.bin,
    });
  }

  /**
   * One update per registry row. `update` does not refresh the marketplace (measured),
   * so each marketplace is refreshed once first; a row whose refresh failed fails with its words.
   */
  async #updateRun(trigger: PluginUpdateTrigger, rows: InstalledPlugin[], inv: Inventory) {
    const cwd = this.deps.target()!.configDir;
    const run: PluginUpdateRun = { trigger, finished: false, rows: queuedRows(rows, inv, cwd) };
    this.#publish(run);
    const known = new Set(inv.snapshot.marketplaces.map((m) => m.name));
    const failed = await this.#refreshMarkets(
      run.rows.map((r) => r.marketplace).filter((m) => known.has(m)),
    );
    for (const row of run.rows) {
      if (!known.has(row.marketplace)) {
        Object.assign(row, {
          status: "skipped",
          detail: `marketplace ${row.marketplace} is not configured`,
        });
      } else if (failed.has(row.marketplace)) {
        Object.assign(row, { status: "failed", detail: failed.get(row.marketplace)! });
      } else {
        row.status = "updating";
        this.#publish(run);
        Object.assign(
          row,
          rowAfterUpdate(row, await this.#cli(["update", row.plugin_id, "--scope", row.scope])),
        );
      }
      this.#publish(run);
    }
    await this.#finish(run, trigger);
  }

  /** Refreshes the marketplaces, rescans, and compares each installed version with the candidate. */
  async #checkRun(inv: Inventory) {
    const cwd = this.deps.target()!.configDir;
    const run: PluginUpdateRun = {
      trigger: "manual",
      finished: false,
      rows: queuedRows(inv.snapshot.installed, inv, cwd),
    };
    this.#publish(run);
    const known = new Set(inv.snapshot.marketplaces.map((m) => m.name));
    const failed = await this.#refreshMarkets(
      run.rows.map((r) => r.marketplace).filter((m) => known.has(m)),
    );
    const after = await this.deps.keeper.refresh("manual");
    run.rows = checkRows(run.rows, after ?? inv, failed);
    this.#publish(run);
    await this.#finish(run, "manual");
  }
}

function marketOf(what: string, pluginId: string): string {
  const at = pluginId.lastIndexOf("@");
  if (at <= 0 || at === pluginId.length - 1 || pluginId.startsWith("-")) {
    throw new Refusal(
      what,
      `${what}: plugin_id must be <plugin>@<marketplace>, not \`${pluginId}\``,
    );
  }
  return pluginId.slice(at + 1);
}
