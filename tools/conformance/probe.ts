import { WebSocket as NodeWebSocket } from "ws";
import { ForgeClient } from "../client_lib.ts";

// What the conformance rules reach a running forge with: the protocol client for frames, a raw
// HTTP handshake for the origin check (its status line is the answer), and a `ws` client for
// the server's own WebSocket pings, which a browser-style client never sees.

/** The URL's host and port, for the raw handshake. */
export function hostPort(url: string): { hostname: string; port: number; path: string } {
  const u = new URL(url);
  return {
    hostname: u.hostname.replace(/^\[|\]$/g, ""),
    port: Number(u.port || (u.protocol === "wss:" ? 443 : 80)),
    path: u.pathname,
  };
}

/** Opens the socket with a given Origin header; answers the HTTP status line the server gave. */
export async function handshakeStatus(url: string, origin: string): Promise<string> {
  const { hostname, port, path } = hostPort(url);
  const conn = await Deno.connect({ hostname, port });
  try {
    const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
      `Sec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`;
    await conn.write(new TextEncoder().encode(request));
    const buf = new Uint8Array(4096);
    let text = "";
    while (!text.includes("\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    return text.split("\r\n")[0] ?? "";
  } finally {
    try {
      conn.close();
    } catch {
      // Already closed by the server.
    }
  }
}

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
