/**
 * The socket bench's servers: forge itself, and two bare WebSocket broadcasts it is measured
 * against - `Deno.serve` (the baseline) and node:http + `ws` (the transport forge runs
 * on, so the gap splits into the transport's share and forge's own). A bare server answers a
 * subscribe with a snapshot, sends each broadcast encoded once, and gzips frames of 64 KiB and up
 * into kind-3 frames for a client that dialled `deflate=1`, as forge does.
 */
import { createServer } from "node:http";
import { gzip } from "node:zlib";
import { promisify } from "node:util";
// @ts-types="npm:@types/ws@8.18.2"
import { type WebSocket as WsSocket, WebSocketServer } from "ws";
import { memoryLogger } from "../../../server/log.ts";
import { startServer } from "../../../server/server.ts";
import { encodeGzipFrame } from "../../../protocol/mod.ts";

const gzipAsync = promisify(gzip);
const DEFLATE_AT = 64 * 1024;

export interface Target {
  url: string;
  /** Accepts one update carrying `message` (the stamp is taken by the caller just before). */
  broadcast(message: string): void;
  stop(): Promise<void>;
}

export type ArmName = "forge" | "bare" | "bare_ws";

export function target(arm: ArmName): Promise<Target> {
  return arm === "forge" ? forgeTarget() : arm === "bare" ? bareDeno() : bareWs();
}

async function forgeTarget(): Promise<Target> {
  const dir = await Deno.makeTempDir({ prefix: "forge-bench-" });
  const server = await startServer({
    configPath: `${dir}/forge.toml`,
    port: 0,
    log: memoryLogger(),
  });
  return {
    url: server.url,
    broadcast: (message) =>
      server.workspace.emit({ name: "fatal_error", fields: { error: "config_invalid", message } }),
    stop: async () => {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The frame a bare arm broadcasts: forge's update shape, so both arms move the same bytes. */
function frameOf(message: string): string {
  return JSON.stringify({
    kind: "update",
    update: { fatal_error: { error: "config_invalid", message } },
    span: 1,
  });
}

interface BareSocket {
  deflate: boolean;
  /** Sends in order: a gzip in flight holds the frames behind it. */
  chain: Promise<void> | null;
  send(data: string | Uint8Array): void;
}

function sendTo(s: BareSocket, text: string): void {
  if (!s.deflate || text.length < DEFLATE_AT) {
    if (s.chain === null) return s.send(text);
    s.chain = s.chain.then(() => s.send(text));
    return;
  }
  s.chain = (s.chain ?? Promise.resolve()).then(async () => {
    s.send(encodeGzipFrame(new Uint8Array(await gzipAsync(text))));
  });
}

/** Encodes an update once and sends it to every socket, as forge's fan-out does. */
function broadcastTo(sockets: Set<BareSocket>): (message: string) => void {
  return (message) => {
    const text = frameOf(message);
    for (const s of sockets) sendTo(s, text);
  };
}

function onClientText(s: BareSocket, data: unknown): void {
  if (String(data).includes('"subscribe"')) s.send(JSON.stringify({ kind: "snapshot" }));
}

async function bareDeno(): Promise<Target> {
  const sockets = new Set<BareSocket>();
  const ac = new AbortController();
  const listening = Promise.withResolvers<number>();
  const http = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    signal: ac.signal,
    onListen: (a) => listening.resolve(a.port),
  }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    const s: BareSocket = {
      deflate: new URL(req.url).searchParams.get("deflate") === "1",
      chain: null,
      send: (d) => socket.send(d),
    };
    socket.onopen = () => {
      sockets.add(s);
      socket.send(JSON.stringify({ kind: "greeting" }));
    };
    socket.onmessage = (e) => onClientText(s, e.data);
    socket.onclose = () => sockets.delete(s);
    return response;
  });
  const port = await listening.promise;
  return {
    url: `ws://127.0.0.1:${port}/socket`,
    broadcast: broadcastTo(sockets),
    stop: async () => {
      ac.abort();
      await http.finished;
    },
  };
}

async function bareWs(): Promise<Target> {
  const sockets = new Set<BareSocket>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const http = createServer();
  http.on("upgrade", (req, tcp, head) => {
    wss.handleUpgrade(req, tcp, head, (ws: WsSocket) => {
      const s: BareSocket = {
        deflate: (req.url ?? "").includes("deflate=1"),
        chain: null,
        send: (d) => ws.send(d),
      };
      sockets.add(s);
      ws.send(JSON.stringify({ kind: "greeting" }));
      ws.on("message", (d: unknown) => onClientText(s, d));
      ws.on("close", () => sockets.delete(s));
    });
  });
  const port = await new Promise<number>((resolve) =>
    http.listen(0, "127.0.0.1", () => resolve((http.address() as { port: number }).port))
  );
  return {
    url: `ws://127.0.0.1:${port}/socket`,
    broadcast: broadcastTo(sockets),
    stop: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
