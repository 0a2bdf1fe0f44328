import { checkOrigin, type OriginPolicy } from "./origin.ts";
import type { Logger } from "./log.ts";

/** What the listener needs from the rest of the server. */
export interface SocketDeps {
  log: Logger;
  policy: () => OriginPolicy;
  /** Seconds of inbound quiet before Deno sends its WebSocket ping (see `keepaliveIdleTimeout`). */
  idleTimeoutSecs: number;
  /** Takes an upgraded socket; `deflate` is whether the client dialled with `deflate=1`. */
  accept(socket: WebSocket, info: { peer: string; deflate: boolean }): void;
}

/**
 * Serves `/socket` with `Deno.serve`; every other path is 404. The Origin check runs before the
 * upgrade: a refusal answers 403 before any greeting and logs `socket_origin_refused` with the
 * origin and the peer. spec: The socket > Reaching it.
 */
export function serveSocket(
  opts: {
    hostname: string;
    port: number;
    signal: AbortSignal;
    onListen?: (addr: Deno.NetAddr) => void;
  },
  deps: SocketDeps,
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    hostname: opts.hostname,
    port: opts.port,
    signal: opts.signal,
    onListen: (addr) => opts.onListen?.(addr),
    onError: (err) => {
      deps.log.error("http_error", { error: err });
      return new Response("internal error", { status: 500 });
    },
  }, (req, info) => {
    const url = new URL(req.url);
    if (url.pathname !== "/socket") return new Response("not found\n", { status: 404 });
    // Headers must be read before the upgrade: afterwards the request is closed (feasibility §1).
    const origin = req.headers.get("origin");
    const peer = `${info.remoteAddr.hostname}:${info.remoteAddr.port}`;
    const verdict = checkOrigin(origin, deps.policy());
    if (!verdict.ok) {
      deps.log.warn("socket_origin_refused", { origin, peer, why: verdict.why });
      return new Response("origin refused\n", { status: 403 });
    }
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("this is a WebSocket endpoint\n", { status: 426 });
    }
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: deps.idleTimeoutSecs });
    socket.binaryType = "arraybuffer";
    deps.accept(socket, { peer, deflate: url.searchParams.get("deflate") === "1" });
    return response;
  });
}

/**
 * Deno's WebSocket has no ping(): its `idleTimeout` pings after half the timeout of inbound quiet
 * and closes after the other half with no frame back. Setting it to twice the spec's dead bound
 * makes "a ping unanswered for 60 s ends the connection" exact, and a slow 3.5 MB frame can never
 * trip it early. The cost: the ping goes out after 60 s of quiet rather than every 15 s, which
 * the spec's clients do not notice because they send their own ping after 15 s of quiet.
 */
export function keepaliveIdleTimeout(pingDeadMs: number): number {
  return Math.max(2, Math.round((2 * pingDeadMs) / 1000));
}
