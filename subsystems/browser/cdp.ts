// @ts-types="npm:@types/ws@8.18.2"
import { type RawData, WebSocket } from "ws";

/** A CDP result or event body, as Chromium sent it. */
export type CdpBody = Record<string, unknown>;

/**
 * One browser-level DevTools connection, typed for forge's use: every page is reached through a
 * flattened session of this one socket (`Target.attachToTarget {flatten: true}`), so a host has
 * exactly one connection to watch for death.
 */
export interface Cdp {
  /** Sends one command; its result, or an Error in Chromium's words (or the closed socket's). */
  send(method: string, params?: CdpBody, sessionId?: string): Promise<CdpBody>;
  /** Every event; `sessionId` names the page session it came from (absent for the browser's). */
  onEvent(fn: (method: string, params: CdpBody, sessionId: string | undefined) => void): void;
  /** Runs once when the socket closes, whatever closed it. */
  onClose(fn: () => void): void;
  close(): Promise<void>;
}

/** One message from Chromium: a command's answer (`id`) or an event (`method`). */
interface Incoming {
  id?: number;
  result?: CdpBody;
  error?: { message?: string; data?: string };
  method?: string;
  params?: CdpBody;
  sessionId?: string;
}

/**
 * The largest message Chromium's DevTools server sends (its 256 MB send buffer). Deno's own
 * WebSocket closes the socket on any message over 64 MiB, which a page reaches by logging a
 * 70 MB string (a console event crosses this connection): that would end the host.
 */
const MAX_MESSAGE = 256 * 1024 * 1024;

/**
 * Connects to a browser's DevTools WebSocket URL (`ws://127.0.0.1:<port>/devtools/browser/..`).
 *
 * Each command's answer is waited on from before the command is written. chrome-remote-interface
 * (forge's client until this one) registered it only in the socket write's completion callback,
 * and under Deno that callback can run after the answer has already been read: the answer found
 * no one waiting and was dropped, and the command never settled (measured around a fresh
 * browser's first page load on a loaded machine: 1 browser in 25, 1 in 5 under heavier load).
 */
export async function connectCdp(wsUrl: string): Promise<Cdp> {
  const socket = new WebSocket(wsUrl, { maxPayload: MAX_MESSAGE, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const waiting = new Map<number, { resolve(b: CdpBody): void; reject(e: Error): void }>();
  const listeners: ((method: string, params: CdpBody, session: string | undefined) => void)[] = [];
  const closers: (() => void)[] = [];
  let nextId = 1;
  let closed = false;
  // An error (a refused frame, a reset) is followed by the close below, which says it.
  socket.on("error", () => {});
  const ended = new Promise<void>((resolve) => {
    socket.once("close", () => {
      closed = true;
      const gone = new Error("the browser's DevTools connection closed");
      for (const w of waiting.values()) w.reject(gone);
      waiting.clear();
      for (const fn of closers) fn();
      resolve();
    });
  });
  socket.on("message", (data: RawData) => {
    const msg = JSON.parse(String(data)) as Incoming;
    if (msg.id !== undefined) {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) {
        const { message = "Chromium refused the command", data } = msg.error;
        w?.reject(new Error(data ? `${message} (${data})` : message));
      } else w?.resolve(msg.result ?? {});
    } else if (msg.method) {
      for (const fn of listeners) fn(msg.method, msg.params ?? {}, msg.sessionId);
    }
  });
  return {
    send(method, params = {}, sessionId) {
      if (closed || socket.readyState !== WebSocket.OPEN) {
        return Promise.reject(new Error(`the browser's DevTools connection closed (${method})`));
      }
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        socket.send(
          JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }),
        );
      });
    },
    onEvent(fn) {
      listeners.push(fn);
    },
    onClose(fn) {
      closers.push(fn);
    },
    close() {
      if (!closed) socket.close();
      return ended;
    },
  };
}
