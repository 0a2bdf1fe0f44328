import { WebSocket as NodeWebSocket } from "ws";
import { ForgeClient } from "../client_lib.ts";

/** The upgrade's status line, asked over a plain connection: the SDK's own probe. */
export { handshakeStatus } from "../client/dial.ts";

// What the conformance rules reach a running forge with: the protocol client for frames, a raw
// HTTP handshake for the origin check (its status line is the answer), and a `ws` client for
// the server's own WebSocket pings, which a browser-style client never sees.

/** Waits for the server's first WebSocket ping on a fresh connection; null when none came. */
export function firstServerPing(url: string, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const ws = new NodeWebSocket(url);
    const done = (v: number | null) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on("error", () => {});
      ws.terminate();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), ms);
    ws.on("ping", () => done(performance.now() - started));
    ws.on("error", () => done(null));
  });
}

/** A validating protocol client past its greeting and settings frame. */
export async function ready(url: string): Promise<ForgeClient> {
  const c = await ForgeClient.connect(url, { validate: true });
  await c.next((m) => m.kind === "greeting");
  await c.next((m) => m.kind === "settings");
  return c;
}
