import type { ConnectorSets } from "../../protocol/mod.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { accountsArea } from "../areas/accounts.ts";
import { cliVersionArea } from "../areas/cli_version.ts";
import { dictateModelsArea } from "../areas/dictate_models.ts";
import { homeArea } from "../areas/home.ts";
import { perfArea } from "../areas/perf.ts";
import { seatsArea } from "../areas/seats.ts";
import { serviceStatusArea } from "../areas/service_status.ts";
import { sessionArea } from "../areas/session.ts";
import { settingsArea } from "../areas/settings.ts";
import { type Board, boardArea } from "../board/mod.ts";
import { Registry } from "../registry.ts";
import type { ServerOptions } from "./options.ts";
import type { AnyManifest, Host } from "../subsystem.ts";
import { workersArea } from "../workers/mod.ts";
import { ToolBridge } from "../workspace/mcp/bridge.ts";
import { SeatManager } from "../workspace/seats/mod.ts";
import type { ConfigPhase } from "./config.ts";
import type { StatePhase } from "./state.ts";
import type { WorkspacePhase } from "./workspace.ts";

/** What the subsystems phase leaves: the registry every message is routed by, and the tools. */
export interface SubsystemsPhase {
  registry: Registry;
  bridge: ToolBridge;
}

/**
 * Phase 5, subsystems: the seats' manager and forge's MCP bridge, the Host every area is given,
 * then the registry of every area, booted in its list's order. That order is the one dependency
 * left between areas: the workers and the board come after the seats, because the workers respawn
 * their durable seats and the cron tick's boot catch-up delivers into them.
 */
export async function subsystemsPhase(
  opts: ServerOptions,
  { configDir, log, build, store }: ConfigPhase,
  { stateDir, keeper, attendance }: StatePhase,
  { workspace, held, watchers }: WorkspacePhase,
): Promise<SubsystemsPhase> {
  // The bridge and the home area read the registry built below; neither reads it before boot.
  const bridge = new ToolBridge(() => registry.tools(store.config), log);
  const seats = new SeatManager({
    log,
    config: () => store.config,
    workspace,
    stateDir,
    keeper,
    watchers,
    held,
    tools: bridge,
  });
  // The board comes and goes with its area: home counts its tasks while it runs.
  let board: Board | null = null;
  const core: AnyManifest[] = [
    homeArea({
      build,
      board: () => board,
      subsystemFields: () => registry.homeFields(),
    }),
    sessionArea(() => registry),
    serviceStatusArea(opts.statusSchedule),
    cliVersionArea(opts.latestSchedule),
    dictateModelsArea,
    perfArea(configDir),
    accountsArea,
    settingsArea(() => store),
    seatsArea(seats),
    workersArea(() => seats),
    boardArea((b) => {
      board = b;
      // The connectors' subscription sets ride each project's board entry.
      if (b) b.projectFields = (p) => registry.boardFields(p) as { connectors?: ConnectorSets };
    }, opts.cronClock),
  ] as AnyManifest[];
  // The config phase built the catalogue without the core areas: they must add no keys.
  const keyed = core.find((m) => m.area !== null);
  if (keyed) throw new Error(`core area ${keyed.id} declares config keys; they go in CORE_AREAS`);
  const host: Host = {
    log,
    config: () => store.config,
    stateDir,
    state: keeper,
    workspace,
    emit: (u, to) => void workspace.emit(u, to ?? null),
    asks: held,
    deliver: (slot, delivery) => seats.deliver(slot, delivery),
    toolsChanged: (slot) => bridge.changed(slot),
    speech: { dictation: null, speaking: null },
    attendance,
    onReload: (fn) => store.onReload(() => fn()),
  };
  const registry = new Registry([...core, ...SUBSYSTEMS, ...(opts.extra ?? [])], opts.startClock);
  try {
    await registry.boot(host);
    // A seat that auto-started during the boot may have listed its tools before the subsystems
    // after the seats were up: it hears that its list moved (the connectors' tools).
    bridge.changed(undefined, true);
  } catch (err) {
    // The areas booted before the failure are stopped (the seats end the CLIs an auto_start lead
    // launched) before the boot's own error goes on to the server, which undoes the rest.
    await registry.stop();
    throw err;
  }
  return { registry, bridge };
}
