import { encodeUpdate, type SettingsDocument } from "../../protocol/mod.ts";
import { utf8Length } from "../encoded.ts";
import { reaches } from "../fanout.ts";
import { serveSocket } from "../socket.ts";
import type { ServerOptions } from "./options.ts";
import { DEFAULT_TIMERS } from "../timers.ts";
import type { ConfigPhase } from "./config.ts";
import { acceptConnection, type EncodedSettings } from "./accept.ts";
import type { StatePhase } from "./state.ts";
import type { SubsystemsPhase } from "./subsystems.ts";
import type { WorkspacePhase } from "./workspace.ts";

/** What the socket phase leaves: the listening server, or null when `server.enabled` is false. */
export type SocketPhase = Awaited<ReturnType<typeof serveSocket>> | null;

/**
 * Phase 3, listen: `/socket`'s port bound, before any seat can start: a forge that cannot serve
 * (a port another forge holds) ends with its own sentence and has started no seat's CLI, which
 * would outlive it. Upgrades wait until the socket phase opens it. Null when `server.enabled` is
 * false.
 */
export async function listenPhase(
  opts: ServerOptions,
  { log, store }: ConfigPhase,
): Promise<SocketPhase> {
  if (!store.config.server.enabled) return null;
  return await serveSocket({
    hostname: store.config.server.bind,
    port: opts.port ?? store.config.server.port,
  }, {
    log,
    policy: () => ({
      bind: store.config.server.bind,
      port: store.config.server.port,
      allowed: store.config.server.allowed_origins,
    }),
  });
}

/**
 * Phase 6, socket: the update stream routed to the areas that listen and to every connection that
 * wants each update, the settings frame kept current across reloads, a failed reload told to
 * every client, then the listener bound in the listen phase opened to connections, unless
 * `server.enabled` is false: then the rest of forge runs with no listener.
 */
export function socketPhase(
  opts: ServerOptions,
  config: ConfigPhase,
  state: StatePhase,
  { workspace }: WorkspacePhase,
  { registry, bridge }: SubsystemsPhase,
  listener: SocketPhase,
): SocketPhase {
  const { log, store } = config;
  const { connections } = state;
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
      if (!reaches(conn, numbered)) continue;
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
  // A reload that fails is told to every client, not only logged. The settings frame
  // stays the last good document (spec: The effective config); the failure rides home's
  // `fatal_error` (spec: What a subject carries > home), pushed as the keyless `fatal_error`
  // update. When the file loads again the error is cleared and every home holder is sent a
  // fresh home snapshot, because no update carries a cleared fatal error.
  store.onFailure((message) => workspace.setFatal("config_invalid", message));
  workspace.fatalCleared = () => {
    const home = registry.subject("home");
    if (!("handler" in home)) return;
    for (const conn of connections.values()) {
      if (conn.subs.count("home") === 0) continue;
      conn.readAndSend("home", () => home.handler("home", conn, { review: false }))
        .catch((error) => log.warn("home_push_failed", { conn: conn.id, error }));
    }
  };
  store.watch();

  const accept = acceptConnection({
    config,
    state,
    workspace,
    registry,
    timers: opts.timers ?? DEFAULT_TIMERS,
    settingsFrame: () => settingsFrame,
  });
  listener?.open(accept);
  return listener;
}

function encodeSettings(document: SettingsDocument): EncodedSettings {
  const text = JSON.stringify({ kind: "settings", document });
  return { text, bytes: utf8Length(text) };
}
