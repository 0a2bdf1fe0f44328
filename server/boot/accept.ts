import { Connection } from "../connection.ts";
import { dispatchBinary, dispatchText } from "../dispatch.ts";
import { greetingOf } from "../greeting.ts";
import type { Registry } from "../registry.ts";
import type { Transport } from "../socket.ts";
import type { Timers } from "../timers.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { ConfigPhase } from "./config.ts";
import type { StatePhase } from "./state.ts";

/** Messages (and their UTF-16 units or bytes) one connection may have waiting to be handled. */
export const INBOUND_QUEUE = { messages: 256, bytes: 32 * 1024 * 1024 };

/**
 * The settings frame's text and its size in bytes: the socket phase encodes it once per load, and
 * every connection accepted here is sent it.
 */
export type EncodedSettings = { text: string; bytes: number };

/** What a new connection is wired to. */
export interface AcceptDeps {
  config: ConfigPhase;
  state: StatePhase;
  workspace: Workspace;
  registry: Registry;
  timers: Timers;
  /** The settings frame in force now (a reload replaces it). */
  settingsFrame(): EncodedSettings;
}

/**
 * One upgraded socket becomes a `Connection`: its messages handled one at a time through a
 * bounded queue, its end taken out of the table, then the greeting and the settings frame sent.
 */
export function acceptConnection(deps: AcceptDeps) {
  const { log, store, build } = deps.config;
  const { connections, attendance, idle } = deps.state;
  const dispatchDeps = { registry: deps.registry, workspace: deps.workspace, log, attendance };
  let nextId = 1;
  return (socket: Transport, info: { peer: string; deflate: boolean }): void => {
    const conn = new Connection(nextId++, socket, {
      deflate: info.deflate,
      timers: deps.timers,
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
            if (typeof data === "string") await dispatchText(conn, data, dispatchDeps);
            else dispatchBinary(conn, data, dispatchDeps);
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
      // The last viewer of a seat leaving is news to whoever waits on attendance (notify, the
      // review watch kept for a seat's subscribers).
      if (conn.showing !== null || conn.subs.holdsSeat) attendance.changed();
    });
    connections.set(conn.id, conn);
    log.debug("connection_opened", { conn: conn.id, peer: info.peer, deflate: info.deflate });
    conn.send(greetingOf(store.config, build));
    const settings = deps.settingsFrame();
    conn.sendEncoded(settings.text, settings.bytes);
  };
}
