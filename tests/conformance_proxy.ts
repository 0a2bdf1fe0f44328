import { createServer } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, WebSocket, WebSocketServer } from "ws";

/**
 * A WebSocket proxy in front of a real forge that breaks one rule on purpose, for the test that
 * the conformance runner fails naming it: every frame passes both ways except the server->client
 * text frames `drop` picks. The handshake is the upstream's (its status, its Origin check), so
 * only what `drop` removes differs from the real server.
 *
 * A link that fails rather than loses: `drop` answering "cut" (or `cutUp` true for a text frame
 * the client sends) ends that connection there, the frame undelivered, as a dropped network does
 * (the client's side ends with no close frame); a connection made after it passes again.
 * `sent` holds every client text frame that reached the upstream.
 */
export async function breakingProxy(
  upstream: string,
  drop: (frame: Record<string, unknown>) => boolean | "cut",
  cutUp: (frame: Record<string, unknown>) => boolean = () => false,
): Promise<{ url: string; sent: string[]; [Symbol.asyncDispose](): Promise<void> }> {
  const sent: string[] = [];
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const sockets = new Set<Duplex>();
  const http = createServer((_req, res) => res.writeHead(404).end());
  http.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  http.on("upgrade", (req, socket, head) => {
    const origin = req.headers.origin;
    const up = new WebSocket(upstream, { headers: origin ? { origin } : {} });
    up.on("unexpected-response", (_r, res) => {
      socket.end(`HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n\r\n`);
    });
    up.on("error", () => socket.destroy());
    up.on("open", () => {
      wss.handleUpgrade(req, socket, head, (down) => {
        let over = false;
        const cut = () => {
          over = true;
          down.terminate();
          up.terminate();
        };
        up.on("message", (data: RawData, binary: boolean) => {
          if (over) return;
          if (!binary) {
            const verdict = drop(JSON.parse(data.toString()));
            if (verdict === "cut") return cut();
            if (verdict) return;
          }
          down.send(data, { binary });
        });
        down.on("message", (data: RawData, binary: boolean) => {
          if (over) return;
          if (!binary) {
            const text = data.toString();
            let frame: Record<string, unknown> | null = null;
            try {
              frame = JSON.parse(text);
            } catch {
              // Not JSON (a test of forge's refusal): it passes as it is.
            }
            if (frame && cutUp(frame)) return cut();
            sent.push(text);
          }
          up.send(data, { binary });
        });
        up.on("ping", () => down.ping());
        up.on("close", () => down.close());
        down.on("close", () => up.close());
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}/socket`,
    sent,
    async [Symbol.asyncDispose]() {
      for (const client of wss.clients) client.terminate();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
