import type { PluginsUpdateFields, PluginsUpdateName } from "../../protocol/mod.ts";
import { update } from "../../protocol/mod.ts";
import type { Host } from "../../server/subsystem.ts";
import { PluginActions } from "./actions.ts";
import { InventoryKeeper } from "./inventory.ts";
import { findClaude } from "../../server/workspace/cli.ts";
import { pluginsConfigDir } from "./root.ts";
import { PluginsWatcher } from "./watch.ts";

/**
 * The Extensions subject over the CLI's own plugin machinery: the inventory is a disk scan of
 * the account's plugins root, the six actions run the real `claude plugin ... --json`, and the
 * disk is followed once anyone reads the subject. spec: What a subject carries > extensions.
 */
export function create(host: Host) {
  const env = (name: string) => Deno.env.get(name);
  const configDir = () => pluginsConfigDir(host.config(), env);
  const claudePath = () => findClaude(host.config(), env);
  const emit = <N extends PluginsUpdateName>(name: N, fields: PluginsUpdateFields<N>) =>
    host.emit(update(name, fields));
  const keeper = new InventoryKeeper({
    configDir,
    claudePath,
    pathEnv: () => env("PATH") ?? "",
    emit,
    warn: (event, fields) => host.log.warn(event, fields),
  });
  const stopping = new AbortController();
  const actions = new PluginActions({
    keeper,
    target: () => {
      const dir = configDir();
      return dir === null ? null : { bin: claudePath(), configDir: dir, signal: stopping.signal };
    },
    emit,
    log: (event, fields) => host.log.info(event, fields),
  });
  let watcher: PluginsWatcher | null = null;
  const follow = () => {
    const dir = configDir();
    if (dir === null) return;
    if (watcher === null) {
      // A change while an action runs is read by the action's own closing rescan.
      watcher = new PluginsWatcher(dir, () => {
        if (actions.busy) return;
        keeper.refresh("manual").catch((err) =>
          host.log.warn("plugins_rescan_failed", { error: (err as Error).message })
        );
      });
    }
    watcher.arm();
  };
  if (host.config().areas.plugins?.auto_update === true) {
    // spec: [plugins] auto_update updates once at boot.
    actions.updateAll("auto").catch((err) =>
      host.log.warn("plugins_auto_update_refused", { why: (err as Error).message })
    );
  }
  const after = <T>(started: Promise<T>) => started.then(follow);
  return {
    verbs: {},
    commands: {
      plugin_update_all: () => after(actions.updateAll("manual")),
      plugin_check_updates: () => after(actions.checkUpdates()),
      plugin_install: (c: { fields: { plugin_id: string } }) =>
        after(actions.install(c.fields.plugin_id)),
      plugin_update: (c: { fields: { plugin_id: string; scope?: string } }) =>
        after(actions.updateOne(c.fields.plugin_id, c.fields.scope)),
      plugin_marketplace_add: (c: { fields: { source: string } }) =>
        after(actions.addMarketplace(c.fields.source)),
      plugin_marketplace_repair: (c: { fields: { marketplace: string } }) =>
        after(actions.repairMarketplace(c.fields.marketplace)),
    },
    subjects: {
      extensions: async () => {
        follow();
        // A read is a fresh scan (a few ms even at 200 plugins; tools/bench/plugins.ts), so a
        // root the watch could not follow yet (absent at the last arm) is never served stale.
        await keeper.refresh("manual");
        return await keeper.read();
      },
    },
    stop: async () => {
      watcher?.stop();
      stopping.abort(); // a CLI call in flight is killed; its run ends with the words above
      await actions.settled;
    },
  };
}
