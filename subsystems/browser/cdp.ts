import CDP from "chrome-remote-interface";

/** A CDP result or event body, as Chromium sent it. */
export type CdpBody = Record<string, unknown>;

/**
 * One browser-level DevTools connection (chrome-remote-interface), typed for forge's use: every
 * page is reached through a flattened session of this one socket (`Target.attachToTarget
 * {flatten: true}`), so a host has exactly one connection to watch for death.
 */
export interface Cdp {
  send(method: string, params?: CdpBody, sessionId?: string): Promise<CdpBody>;
  /** Every event; `sessionId` names the page session it came from (absent for the browser's). */
  onEvent(fn: (method: string, params: CdpBody, sessionId: string | undefined) => void): void;
  /** Runs once when the socket closes, whatever closed it. */
  onClose(fn: () => void): void;
  close(): Promise<void>;
}

interface RawClient {
  send(method: string, params: CdpBody, sessionId?: string): Promise<CdpBody>;
  on(event: string, fn: (...args: unknown[]) => void): void;
  close(): Promise<void>;
}

/** Connects to a browser's DevTools WebSocket URL (`ws://127.0.0.1:<port>/devtools/browser/..`). */
export async function connectCdp(wsUrl: string): Promise<Cdp> {
  const raw =
    await (CDP as unknown as (o: { target: string; local: boolean }) => Promise<RawClient>)(
      { target: wsUrl, local: true },
    );
  const closers: (() => void)[] = [];
  let closed = false;
  raw.on("disconnect", () => {
    if (closed) return;
    closed = true;
    for (const fn of closers) fn();
  });
  return {
    send: (method, params = {}, sessionId) =>
      sessionId ? raw.send(method, params, sessionId) : raw.send(method, params),
    onEvent: (fn) =>
      raw.on("event", (m) => {
        const msg = m as { method: string; params?: CdpBody; sessionId?: string };
        fn(msg.method, msg.params ?? {}, msg.sessionId);
      }),
    onClose: (fn) => closers.push(fn),
    close: async () => {
      try {
        await raw.close();
      } catch { /* already gone */ }
    },
  };
}
