import { configDirOf, configPhase } from "./boot/config.ts";
import { statePhase } from "./boot/state.ts";
import { type WorkspacePhase, workspacePhase } from "./boot/workspace.ts";
import { type SubsystemsPhase, subsystemsPhase } from "./boot/subsystems.ts";
import { listenPhase, type SocketPhase, socketPhase } from "./boot/socket.ts";
import type { ConfigStore } from "./config/store.ts";
import type { Gateway } from "./gateway/gateway.ts";
import type { Logger } from "./log.ts";
import type { Registry } from "./registry.ts";
import type { ToolBridge } from "./workspace/mcp/bridge.ts";
import type { Workspace } from "./workspace/workspace.ts";
import { unwindBoot } from "./boot/unwind.ts";
import { inPhase } from "./boot/failure.ts";
import type { ServerOptions } from "./boot/options.ts";

export { INBOUND_QUEUE } from "./boot/accept.ts";
export type { ServerOptions } from "./boot/options.ts";

export interface RunningServer {
  /** Whether the socket is served (`server.enabled`); the rest of forge runs either way. */
  serving: boolean;
  /** The socket's address; reading it when the socket is off throws a sentence saying so. */
  addr: Deno.NetAddr;
  url: string;
  workspace: Workspace;
  gateway: Gateway;
  /** forge's MCP servers, one per live occupant: what each seat's CLI calls. */
  tools: ToolBridge;
  config: ConfigStore;
  registry: Registry;
  connections(): number;
  /** The server's log (forge.log, or the one its options gave). */
  log: Logger;
  /** Ends everything and flushes state; every call, a second signal's too, answers the one
   * shutdown. */
  stop(): Promise<void>;
}

/**
 * Boots forge in six phases, each in its own file under `boot/`, each handed what the ones before
 * it left: config (the file, the log), state (the state dir, the connection table), listen
 * (`/socket`'s port bound before any seat starts), workspace (the stateful core, the account
 * gateway, the held asks), subsystems (every area's handlers in the registry) and socket (update
 * routing, reloads, `/socket` opened). `stop` undoes them in reverse. A boot that fails throws a
 * BootFailure: the phase and what was wrong, in forge's words (boot/failure.ts).
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const configDir = configDirOf(opts.configPath);
  const config = await inPhase("config", opts.log ?? null, () => configPhase(opts), configDir);
  const { log } = config;
  const state = await inPhase("state", log, () => statePhase(config), `${configDir}/state`);
  let listener: SocketPhase | undefined;
  let core: WorkspacePhase | undefined;
  let areas: SubsystemsPhase | undefined;
  let http: SocketPhase | undefined;
  try {
    listener = await inPhase("listen", log, () => listenPhase(opts, config));
    core = await inPhase("workspace", log, () => workspacePhase(opts, config, state));
    areas = await inPhase("subsystems", log, () => subsystemsPhase(opts, config, state, core!));
    http = await inPhase(
      "socket",
      log,
      () => socketPhase(opts, config, state, core!, areas!, listener!),
    );
  } catch (err) {
    // A boot that fails undoes what its phases began, in reverse: the areas (the seats end the
    // CLIs an auto_start lead launched, which would outlive this forge), the config watch, the
    // account gateway, the port, the state dir, so a forge started again in this process may take
    // them. The boot's own failure is what is thrown, naming its phase in forge's words
    // (boot/failure.ts); a step of the undoing that fails is logged.
    await unwindBoot(config.log, [
      ["subsystems", () => areas?.registry.stop()],
      ["config_watch", () => config.store.close()],
      ["gateway", () => core?.gateway.stop()],
      ["listener", () => listener?.stop()],
      ["state", () => state.keeper.flushed()],
    ]);
    state.owner.release();
    throw err;
  }

  const { store } = config;
  const { connections, idle, keeper } = state;
  const { registry } = areas;
  if (http) {
    log.info("server_listening", {
      bind: http.addr.hostname,
      port: http.addr.port,
      config: store.loaded.path,
      config_file: store.loaded.exists ? "read" : "none: the built-in defaults",
      subsystems: registry.states(),
    });
  } else {
    log.warn("server_socket_disabled", {
      why: "server.enabled is false: no socket is served; seats, schedules and workers run",
      config: store.loaded.path,
      subsystems: registry.states(),
    });
  }
  const socket = () => {
    if (!http) throw new Error("the socket is off: server.enabled is false in forge.toml");
    return http.addr;
  };
  let stopping: Promise<void> | undefined;
  return {
    serving: http !== null,
    get addr() {
      return socket();
    },
    get url() {
      const addr = socket();
      const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
      return `ws://${host}:${addr.port}/socket`;
    },
    workspace: core.workspace,
    gateway: core.gateway,
    tools: areas.bridge,
    config: store,
    registry,
    connections: () => connections.size,
    log,
    stop() {
      // A second signal (Ctrl-C reaches the launcher and the server both) waits for the same
      // shutdown: exiting on it would cut the browsers' close and the state writes short.
      stopping ??= (async () => {
        // Shutdown leaves a record, with what it ended.
        log.info("server_shutdown", { connections: connections.size });
        // No one is greeted from here on: the connections held are ended below, and a client
        // that dials again meanwhile is refused until the next forge takes the port.
        http?.refuse();
        store.close();
        idle.stop();
        for (const conn of connections.values()) conn.end("shutdown");
        await registry.stop();
        await core.gateway.stop();
        await http?.stop();
        await keeper.flushed();
        state.owner.release();
        log.info("server_stopped", {});
      })();
      return stopping;
    },
  };
}
