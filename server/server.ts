import {
  type ConnectorSets,
  encodeUpdate,
  sameSlot,
  type SessionUpdate,
  type SettingsDocument,
  type Slot,
} from "../protocol/mod.ts";
import { SUBSYSTEMS } from "../subsystems/mod.ts";
import { accountsArea } from "./areas/accounts.ts";
import { cliVersionArea, type LatestSchedule } from "./areas/cli_version.ts";
import { dictateModelsArea } from "./areas/dictate_models.ts";
import { homeArea } from "./areas/home.ts";
import { perfArea } from "./areas/perf.ts";
import { seatsArea } from "./areas/seats.ts";
import { serviceStatusArea, type StatusSchedule } from "./areas/service_status.ts";
import { sessionArea } from "./areas/session.ts";
import { settingsArea } from "./areas/settings.ts";
import { type Board, boardArea } from "./board/mod.ts";
import type { TickClock } from "./board/cron.ts";
import { workersArea } from "./workers/mod.ts";
import { buildInfo } from "./build_info.ts";
import { CORE_AREAS } from "./config/core_areas.ts";
import { ConfigStore } from "./config/store.ts";
import { Gateway } from "./gateway/gateway.ts";
import { Connection } from "./connection.ts";
import { greetingOf } from "./greeting.ts";
import { utf8Length } from "./encoded.ts";
import { IdleCollector } from "./idle_gc.ts";
import { SeatAttendance } from "./attendance.ts";
import { dispatchBinary, dispatchText } from "./dispatch.ts";
import { createLogger, type Logger } from "./log.ts";
import { catalogueAreas, Registry } from "./registry.ts";
import { serveSocket } from "./socket.ts";
import { refusalWords, StateKeeper, sweepTemps } from "./state/keeper.ts";
import type { AnyManifest, Host } from "./subsystem.ts";
import { DEFAULT_TIMERS, type Timers } from "./timers.ts";
import { Workspace } from "./workspace/workspace.ts";
import { ToolBridge } from "./workspace/mcp/bridge.ts";
import { HeldAskRegistry } from "./workspace/seats/held.ts";
import type { SeatManager } from "./workspace/seats/manager.ts";

/** Messages (and their UTF-16 units or bytes) one connection may have waiting to be handled. */
export const INBOUND_QUEUE = { messages: 256, bytes: 32 * 1024 * 1024 };

export interface ServerOptions {
  configPath: string;
  /** Overrides `[server] port` (tests pass 0 for a free port). */
  port?: number;
  /** Overrides `[gateway] port` (tests pass 0 for a free port). */
  gatewayPort?: number;
  timers?: Timers;
  log?: Logger;
  /** Extra manifests (tests add fakes); the real subsystems are always loaded. */
  extra?: readonly AnyManifest[];
  /** When the status page is read (default every five minutes); tests tick it themselves. */
  statusSchedule?: StatusSchedule;
  /** When npm is asked for the newest claude (default every six hours); tests tick it. */
  latestSchedule?: LatestSchedule;
  /** The cron tick's clock (wall time); tests hand in one they move, so no test waits a minute. */
  cronClock?: TickClock;
}

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
  stop(): Promise<void>;
}

/**
 * Boots forge: config, workspace, registry, then `/socket`. DESIGN.md §1. Every connection gets
 * the greeting and the settings frame; every update is routed to the connections that want it;
 * every applied reload pushes a new settings frame to every connection.
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const configDir = opts.configPath.replace(/\/[^/]*$/, "") || ".";
  await Deno.mkdir(configDir, { recursive: true });
  const log = opts.log ?? createLogger({ file: `${configDir}/forge.log` });
  const timers = opts.timers ?? DEFAULT_TIMERS;
  const build = await buildInfo();
  const connections = new Map<number, Connection>();
  const attendance = new SeatAttendance(
    () => connections.values(),
    (error) => log.warn("attendance_listener_failed", { error }),
  );
  // Memory back to the OS once a burst of client traffic is over (idle_gc.ts).
  const idle = new IdleCollector({
    quietMs: 2_000,
    minMessages: 1_000,
    minBytes: 16 * 1024 * 1024,
    onCollect: (ms) => log.debug("idle_gc", { ms: Math.round(ms) }),
  });
  const registryRef: { current: Registry | null } = { current: null };
  const storeRef: { current: ConfigStore | null } = { current: null };
  let board: Board | null = null;
  // The held asks, forge's MCP bridge and the seats Host.deliver reaches.
  const emitRef: { current: (u: SessionUpdate) => void } = { current: () => {} };
  const heldRef = { current: new HeldAskRegistry((u) => emitRef.current(u), log) };
  const bridge = new ToolBridge(
    () => registryRef.current?.tools(storeRef.current!.config) ?? [],
    log,
  );
  const seatsRef: { current: SeatManager | null } = { current: null };
  const manifests = [
    homeArea({
      build,
      board: () => board,
      subsystemFields: () =>
        registryRef.current?.homeFields((error, id) =>
          log.warn("subsystem_home_failed", { subsystem: id, error })
        ) ?? Promise.resolve({}),
    }),
    sessionArea(() => registryRef.current!),
    serviceStatusArea(opts.statusSchedule),
    cliVersionArea(opts.latestSchedule),
    dictateModelsArea,
    perfArea(configDir),
    accountsArea,
    settingsArea(() => storeRef.current!),
    // The seats: who holds and who shows a seat is read off the live connections.
    seatsArea({
      watchers: {
        holding: (slot: Slot) =>
          [...connections.values()].filter((c) => c.subs.count({ session: slot }) > 0).length,
        showing: (slot: Slot) =>
          [...connections.values()].filter((c) => c.showing && sameSlot(c.showing, slot)).length,
      },
      held: heldRef.current,
      tools: bridge,
      started: (manager) => (seatsRef.current = manager),
    }),
    // After the seats: the workers run in seats, and respawn the durable ones at boot.
    workersArea(() => seatsRef.current),
    // After the seats: the cron tick's boot catch-up delivers into them.
    boardArea((b) => {
      board = b;
      // The connectors' subscription sets ride each project's board entry.
      if (b) {
        b.projectFields = (p) =>
          (registryRef.current?.boardFields(p) ?? {}) as { connectors?: ConnectorSets };
      }
    }, opts.cronClock),
    ...SUBSYSTEMS,
    ...(opts.extra ?? []),
  ];
  const store = await ConfigStore.open(
    opts.configPath,
    catalogueAreas(CORE_AREAS, manifests),
    build.forge_version_short,
    log,
  );
  storeRef.current = store;
  const workspace = new Workspace(log, () => store.config);
  const stateDir = `${configDir}/state`;
  await Deno.mkdir(stateDir, { recursive: true });
  // Every state file goes through one keeper (server/state/): a crash's temp files are swept
  // before any store reads, and a file found damaged rides home's fatal_error until mended.
  const keeper = new StateKeeper(log);
  await sweepTemps(stateDir, log, [`${stateDir}/worktrees`, `${stateDir}/browser`]);
  keeper.onDamage((damaged) =>
    workspace.setFatal(
      "state_damaged",
      damaged.length === 0 ? null : damaged.map((d) => refusalWords(d)).join("; "),
    )
  );
  // The account gateway is up before any seat launches (auto_start leads start at registry boot).
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
  const host: Host = {
    log,
    config: () => store.config,
    stateDir,
    state: keeper,
    workspace,
    emit: (u) => void workspace.emit(u),
    asks: heldRef.current,
    deliver: async (slot, delivery) => {
      if (!seatsRef.current) throw new Error("the seats are not running");
      await seatsRef.current.deliver(slot, delivery);
    },
    toolsChanged: (slot) => bridge.changed(slot),
    speech: { dictation: null, speaking: null },
    attendance,
    onReload: (fn) => store.onReload(() => fn()),
  };
  emitRef.current = host.emit;
  const registry = new Registry(manifests);
  registryRef.current = registry;
  await registry.boot(host);
  // A seat that auto-started during the boot may have listed its tools before the subsystems
  // after the seats were up: it hears that its list moved (the connectors' tools).
  bridge.changed(undefined, true);

  workspace.stream.subscribe((numbered) => {
    registry.onUpdate(
      numbered.update,
      (error, id) => log.warn("subsystem_update_failed", { subsystem: id, error }),
    );
    const frame = {
      kind: "update" as const,
      update: encodeUpdate(numbered.update),
      ...(numbered.seq === null ? {} : { seq: numbered.seq }),
      span: numbered.span,
    };
    // Encoded once, whatever the number of connections it reaches.
    let text: string | null = null;
    let bytes = 0;
    for (const conn of connections.values()) {
      if (numbered.only !== null ? conn.id !== numbered.only : !conn.subs.wants(numbered)) continue;
      if (text === null) {
        text = JSON.stringify(frame);
        bytes = utf8Length(text);
      }
      conn.sendEncoded(text, bytes, numbered.followed === true);
    }
  });
  // spec: the document is built once per load and shared by every connection: so is its encoding.
  let settingsFrame = encodeSettings(store.document);
  store.onReload((document) => {
    // A reload that switched a subsystem on or off moves the seats' tools.
    bridge.changed(undefined, true);
    settingsFrame = encodeSettings(document);
    for (const conn of connections.values()) {
      conn.sendEncoded(settingsFrame.text, settingsFrame.bytes);
    }
  });
  // A reload that fails is told to every client, not only logged. The settings frame stays the
  // last good document (spec: The effective config); the failure rides home's `fatal_error`
  // (spec: What a subject carries > home), pushed as the keyless `fatal_error` update. When the
  // file loads again the error is cleared and every home holder is sent a fresh home snapshot,
  // because no update carries a cleared fatal error.
  store.onFailure((message) => workspace.setFatal("config_invalid", message));
  workspace.fatalCleared = () => {
    const home = registry.subject("home");
    if (!("handler" in home)) return;
    for (const conn of connections.values()) {
      if (conn.subs.count("home") === 0) continue;
      home.handler("home", conn, { review: false })
        .then((data) => conn.sendSnapshot("home", data))
        .catch((error) => log.warn("home_push_failed", { conn: conn.id, error }));
    }
  };
  store.watch();

  const greeting = () => greetingOf(store.config, build);

  let nextId = 1;
  const deps = { registry, workspace, log, attendance };
  // `server.enabled = false` turns the socket listener off (catalogue: [server]); the rest runs.
  const http = !store.config.server.enabled ? null : await serveSocket({
    hostname: store.config.server.bind,
    port: opts.port ?? store.config.server.port,
  }, {
    log,
    policy: () => ({
      bind: store.config.server.bind,
      port: store.config.server.port,
      allowed: store.config.server.allowed_origins,
    }),
    accept(socket, info) {
      const conn = new Connection(nextId++, socket, {
        deflate: info.deflate,
        timers,
        log,
        peer: info.peer,
      });
      let chain = Promise.resolve();
      // Messages are handled one at a time, in order: a reply never overtakes an earlier answer.
      // The queue is bounded: a client that sends faster than its messages are
      // handled would otherwise park every one of them in memory; past the bound the socket stops
      // being read, so TCP holds the client back, and reading resumes once half has drained.
      const queue = { messages: 0, bytes: 0, paused: false };
      socket.onMessage((data) => {
        const size = typeof data === "string" ? data.length : data.length;
        idle.saw(size);
        queue.messages++;
        queue.bytes += size;
        if (
          !queue.paused &&
          (queue.messages > INBOUND_QUEUE.messages || queue.bytes > INBOUND_QUEUE.bytes)
        ) {
          queue.paused = true;
          socket.pause();
          log.debug("inbound_paused", {
            conn: conn.id,
            queued: queue.messages,
            bytes: queue.bytes,
          });
        }
        chain = chain.then(() =>
          conn.track(async () => {
            try {
              if (typeof data === "string") await dispatchText(conn, data, deps);
              else dispatchBinary(conn, data, deps);
            } finally {
              queue.messages--;
              queue.bytes -= size;
              if (
                queue.paused && queue.messages <= INBOUND_QUEUE.messages / 2 &&
                queue.bytes <= INBOUND_QUEUE.bytes / 2
              ) {
                queue.paused = false;
                if (!conn.ended) socket.resume();
              }
            }
          })
        );
      });
      socket.onClose((why) =>
        why.startsWith("socket_error") ? conn.end("socket_error", why) : conn.end("closed")
      );
      conn.onClose(() => {
        connections.delete(conn.id);
        // The last viewer of a seat leaving is news to whoever waits on attendance (notify).
        if (conn.showing !== null) attendance.changed();
      });
      connections.set(conn.id, conn);
      log.debug("connection_opened", { conn: conn.id, peer: info.peer, deflate: info.deflate });
      conn.send(greeting());
      conn.sendEncoded(settingsFrame.text, settingsFrame.bytes);
    },
  });
  if (http) {
    log.info("server_listening", {
      bind: http.addr.hostname,
      port: http.addr.port,
      config: store.loaded.path,
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

  let stopped = false;
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
    workspace,
    gateway,
    tools: bridge,
    config: store,
    registry,
    connections: () => connections.size,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Shutdown leaves a record, with what it ended.
      log.info("server_shutdown", { connections: connections.size });
      store.close();
      idle.stop();
      for (const conn of connections.values()) conn.end("shutdown");
      await registry.stop();
      await gateway.stop();
      await http?.stop();
      await keeper.flushed();
      log.info("server_stopped", {});
    },
  };
}

function encodeSettings(document: SettingsDocument): { text: string; bytes: number } {
  const text = JSON.stringify({ kind: "settings", document });
  return { text, bytes: utf8Length(text) };
}
