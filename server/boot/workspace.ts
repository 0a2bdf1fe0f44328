import { sameSlot, type Slot } from "../../protocol/mod.ts";
import { Gateway } from "../gateway/gateway.ts";
import { HeldAskRegistry } from "../workspace/seats/held.ts";
import { refusalWords } from "../state/keeper.ts";
import { Workspace } from "../workspace/workspace.ts";
import type { ServerOptions } from "./options.ts";
import type { ConfigPhase } from "./config.ts";
import type { StatePhase } from "./state.ts";

/** What the workspace phase leaves: the stateful core, the account gateway, the held asks. */
export interface WorkspacePhase {
  workspace: Workspace;
  gateway: Gateway;
  held: HeldAskRegistry;
  /** Who holds (subscribes to) and who shows a seat, read off the live connections. */
  watchers: { holding(slot: Slot): number; showing(slot: Slot): number };
}

/**
 * Phase 4, workspace: the workspace every area reads through the Host (a state file found damaged
 * rides home's `fatal_error` until it is mended), then the account gateway, started before any
 * seat can launch (a lead with auto_start starts while the subsystems boot), and the held-ask
 * registry, which emits into the workspace's stream.
 */
export async function workspacePhase(
  opts: ServerOptions,
  { log, store }: ConfigPhase,
  { stateDir, keeper, connections }: StatePhase,
): Promise<WorkspacePhase> {
  const workspace = new Workspace(log, () => store.config);
  keeper.onDamage((damaged) =>
    workspace.setFatal(
      "state_damaged",
      damaged.length === 0 ? null : damaged.map((d) => refusalWords(d)).join("; "),
    )
  );
  const gateway = new Gateway({
    log,
    config: () => store.config,
    emit: (u) => void workspace.emit(u),
    port: opts.gatewayPort,
    stateDir,
    keeper,
    occupied: (slot) => (workspace.seat(slot)?.sessionId() ?? null) !== null,
  });
  workspace.gateway = gateway;
  await gateway.start();
  store.onReload(() => gateway.sync());
  const held = new HeldAskRegistry((u) => workspace.emit(u), log);
  const watchers = {
    holding: (slot: Slot) =>
      [...connections.values()].filter((c) => c.subs.count({ session: slot }) > 0).length,
    showing: (slot: Slot) =>
      [...connections.values()].filter((c) => c.showing && sameSlot(c.showing, slot)).length,
  };
  return { workspace, gateway, held, watchers };
}
