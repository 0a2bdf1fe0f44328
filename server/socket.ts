import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
// @ts-types="npm:@types/ws@8.18.2"
import { type RawData, type WebSocket as WsSocket, WebSocketServer } from "ws";
import { checkOrigin, type OriginPolicy } from "./origin.ts";
import { binaryHead, textFrame } from "./ws_frame.ts";
import { WriteBacklog } from "./write_backlog.ts";
import type { Logger } from "./log.ts";

/**
 * What a connection needs from its WebSocket. `abort` is the reason this is not Deno's own
 * WebSocket: an ended connection must release its transport at once, and
 * `Deno.upgradeWebSocket`'s socket has only `close()`, which queues a close frame behind the data
 * a peer that stopped reading never takes, so the fd and megabytes of buffers stay held for as
 * long as the peer's TCP stack keeps answering window probes (measured: still ESTABLISHED with
 * 3.7 MB unsent after the close; closing its resource id instead leaves the fd held by the pending
 * writes). On node:http's upgraded socket, `resetAndDestroy()` sends a RST and frees the fd and
 * the kernel's send buffer at once.
 */
export interface Transport {
  /** Whether frames can still be sent. */
  readonly open: boolean;
  /** Bytes accepted by `send` and not yet handed to the kernel. */
  readonly bufferedAmount: number;
  /**
   * Every byte this transport has queued for the wire so far, frame headers included, and its
   * pings and pongs: `sentBytes - bufferedAmount` is how many have left, in the same measure as
   * `bufferedAmount` (the write bound's measure of progress).
   */
  readonly sentBytes: number;
  /** Queues one frame. `more`: another frame follows at once, so this one is held for it and
   * both leave in one write (a held run of tokens and the frame that ended it). */
  send(data: string | Uint8Array, more?: boolean): void;
  /** A WebSocket ping; the peer's pong counts as inbound traffic. */
  ping(): void;
  /** A polite close: a close frame, then the TCP close after the peer's reply. */
  close(code: number, reason: string): void;
  /** Drops the TCP connection now (RST): nothing queued is sent, nothing is kept. */
  abort(): void;
  /** Stops reading the peer's frames (TCP backpressure) until `resume`. */
  pause(): void;
  resume(): void;
  onMessage(fn: (data: string | Uint8Array) => void): void;
  /** Any inbound frame, a pong included: the keepalive's proof the peer reads. */
  onInbound(fn: () => void): void;
  onClose(fn: (why: string) => void): void;
}

/** Takes an upgraded socket; `deflate` is whether the client dialled with `deflate=1`. */
export type Accept = (transport: Transport, info: { peer: string; deflate: boolean }) => void;

/** What the listener needs from the rest of the server. */
export interface SocketDeps {
  log: Logger;
  policy: () => OriginPolicy;
  /** Given here, upgrades are accepted at once; left out, they wait for `open`. */
  accept?: Accept;
}

/** The listener; `stop()` closes it and destroys every socket it still holds. */
export interface SocketServer {
  addr: Deno.NetAddr;
  /** Starts handing upgraded sockets to `accept`; the ones that came before it wait for it. */
  open(accept: Accept): void;
  /** Takes no connection from now on: the port is let go, and an upgrade on a connection already
   * open is answered 503. A shutdown calls it first, since ending the seats takes seconds and a
   * client redialling meanwhile would be greeted by a forge about to drop it. */
  refuse(): void;
  stop(): Promise<void>;
}

/**
 * Above the 16 MiB inbound bound, so a frame between the two is answered by dispatch with an
 * error naming the bound (and the connection stays); past this the transport ends it (1009).
 */
const MAX_PAYLOAD = 64 * 1024 * 1024;

/** A frame this large is written at once, never held for the turn's end (see wsTransport). */
const CORK_FRAME_MAX = 16 * 1024;
/** At most this much is held corked in one turn before it is written. */
const CORK_TURN_MAX = 256 * 1024;
/** A server's ping carries no payload: its frame is the two header bytes. */
const PING_FRAME_BYTES = 2;

/**
 * Serves `/socket` with node:http and `ws`; every other path is 404. The Origin check runs before
 * the upgrade: a refusal answers 403 before any greeting and logs `socket_origin_refused` with the
 * origin and the peer. spec: The socket > Reaching it.
 */
export async function serveSocket(
  opts: { hostname: string; port: number },
  deps: SocketDeps,
): Promise<SocketServer> {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false, // kind-3 frames are forge's own gzip (spec: binary kind 3)
    maxPayload: MAX_PAYLOAD,
  });
  const sockets = new Set<Socket>();
  let refusing = false;
  // The port is bound before the rest of forge boots (seats start then), so a client may dial
  // before there is anything to accept it: its upgrade waits here, its bytes held by TCP.
  const opened = Promise.withResolvers<Accept>();
  if (deps.accept) opened.resolve(deps.accept);
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path !== "/socket") {
      res.writeHead(404).end("not found\n");
    } else res.writeHead(426).end("this is a WebSocket endpoint\n");
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("clientError", (err: Error, socket: Socket) => {
    deps.log.debug("http_client_error", { error: err });
    socket.destroy();
  });
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://x");
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    if (refusing) return refuse(socket, 503, "forge is shutting down");
    if (url.pathname !== "/socket") return refuse(socket, 404, "not found");
    const origin = req.headers.origin ?? null;
    const verdict = checkOrigin(origin, deps.policy());
    if (!verdict.ok) {
      deps.log.warn("socket_origin_refused", { origin, peer, why: verdict.why });
      return refuse(socket, 403, "origin refused");
    }
    if (req.headers.upgrade?.toLowerCase() !== "websocket") {
      return refuse(socket, 426, "this is a WebSocket endpoint");
    }
    opened.promise.then((accept) => {
      if (socket.destroyed) return;
      wss.handleUpgrade(req, socket, head, (ws) => {
        accept(wsTransport(ws, socket), {
          peer,
          deflate: url.searchParams.get("deflate") === "1",
        });
      });
    });
  });
  const addr = await new Promise<Deno.NetAddr>((resolve, reject) => {
    server.once("error", (err: Error & { code?: string }) => {
      const where = `${opts.hostname}:${opts.port}`;
      reject(
        new Error(
          err.code === "EADDRINUSE"
            ? `${where} is taken (another forge?): start with --port N or set [server] port`
            : err.code === "EADDRNOTAVAIL"
            ? `${where}: [server] bind is not an address of this machine`
            : err.code === "EACCES" || err.code === "NotCapable"
            ? `forge is not allowed to listen on ${where}`
            : `the socket could not listen on ${where}`,
          { cause: err },
        ),
      );
    });
    server.listen(opts.port, opts.hostname, () => {
      const a = server.address();
      if (a === null || typeof a === "string") return reject(new Error("no address"));
      resolve({ transport: "tcp", hostname: a.address, port: a.port });
    });
  });
  server.on("error", (err: Error) => deps.log.error("http_error", { error: err }));
  let closed: Promise<void> | null = null;
  const close = () => {
    refusing = true;
    return closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    addr,
    open: (accept) => opened.resolve(accept),
    refuse: () => void close(),
    async stop() {
      const done = close();
      for (const s of sockets) s.destroy();
      wss.close();
      await done;
    },
  };
}

function refuse(socket: Socket, status: number, text: string): void {
  const reason = status === 403
    ? "Forbidden"
    : status === 404
    ? "Not Found"
    : status === 503
    ? "Service Unavailable"
    : "Upgrade Required";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${
      text.length + 1
    }\r\nConnection: close\r\n\r\n${text}\n`,
  );
}

/**
 * The Transport over one `ws` socket and the TCP socket under it. A connection's first frame in a
 * turn is written at once; the frames after it in the same turn are corked and leave together in
 * one `writev` when the turn ends. Measured: without the cork, 58% of the server
 * thread's samples in the 50-client fan-out were `writev` itself. Without the first frame leaving
 * at once, a single frame fanned out to 50 sockets sat in userland until the fan-out's last send,
 * and only then were the 50 writes made: the clients could not start on it while the server was
 * still sending (fold_cost, 50 clients: the last socket written 1.46 ms after the read at p50).
 * A frame sent with `more` (a held run of tokens, published because the frame after it came) is
 * held for that next frame, and the two leave in one write: the single frame that ends a run no
 * longer waits behind a write of the run to every socket first.
 *
 * Frames go to the socket through a WriteBacklog, which hands on at most one large frame per
 * write so the write bound sees each one finish.
 */
function wsTransport(ws: WsSocket, tcp: Socket): Transport {
  let sentBytes = 0;
  let sentThisTurn = false;
  let turnQueued = false;
  let corked = false;
  let held = 0;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    held = 0;
    tcp.uncork();
  };
  const endTurn = () => {
    sentThisTurn = false;
    turnQueued = false;
    uncork();
  };
  const backlog = new WriteBacklog(tcp);
  // `ws` answers a peer's ping itself (unmasked: two header bytes and the ping's payload), ahead
  // of the backlog; counted, so those bytes in `bufferedAmount` are not read as a frame unwritten.
  ws.on("ping", (data: Buffer) => {
    if (ws.readyState === ws.OPEN) sentBytes += 2 + data.byteLength;
  });
  const queue = (head: Uint8Array, body: Uint8Array | null) => {
    sentBytes += head.byteLength + (body?.byteLength ?? 0);
    backlog.write(head, body);
  };
  const write = (data: string | Uint8Array) => {
    // A text frame is framed once for every connection it goes to (ws_frame.ts): a 2 MiB home
    // update to 50 clients was 50 UTF-8 encodings of it when `ws` framed each send. A binary
    // frame's header is built once too, and the payload follows it as it is, in one writev.
    if (ws.readyState !== ws.OPEN) ws.send(data);
    else if (typeof data === "string") queue(textFrame(data), null);
    else queue(binaryHead(data), data);
  };
  return {
    get open() {
      return ws.readyState === ws.OPEN;
    },
    get bufferedAmount() {
      return ws.bufferedAmount + backlog.bytes;
    },
    get sentBytes() {
      return sentBytes;
    },
    send(data, more = false) {
      const size = typeof data === "string" ? data.length : data.byteLength;
      // Only small frames wait for the turn's end: a large one (a terminal burst's chunk, a
      // snapshot) is a write of its own anyway, and holding megabytes in userland would read as
      // a viewer that fell behind (the terminal's bound looks at bufferedAmount).
      if (size >= CORK_FRAME_MAX || held + size > CORK_TURN_MAX) {
        uncork();
        write(data);
        return;
      }
      if (!turnQueued) {
        turnQueued = true;
        queueMicrotask(endTurn);
      }
      const atOnce = !more && !sentThisTurn;
      if (atOnce) sentThisTurn = true;
      else if (!corked) {
        // Only what waits (for the turn's end, or for the frame it is held for) counts towards
        // the bound, and `uncork` zeroes it.
        corked = true;
        tcp.cork();
      }
      if (!atOnce) held += size;
      write(data);
      // The frame that leaves at once takes the frames held for it along, in one writev.
      if (atOnce) uncork();
    },
    ping() {
      if (ws.readyState === ws.OPEN) sentBytes += PING_FRAME_BYTES;
      ws.ping();
    },
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    close(code, reason) {
      // What waits goes before the close frame, as it would had it been written already.
      backlog.flush();
      ws.close(code, reason);
    },
    abort() {
      backlog.clear();
      // resetAndDestroy sends a RST: the kernel drops its send buffer too. Falls back to destroy.
      const reset = (tcp as Socket & { resetAndDestroy?: () => void }).resetAndDestroy;
      if (typeof reset === "function") reset.call(tcp);
      else tcp.destroy();
      ws.terminate();
    },
    onMessage(fn) {
      ws.on("message", (data: RawData, isBinary: boolean) => {
        const buf = Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.isBuffer(data)
          ? data
          : Buffer.from(data);
        fn(isBinary ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : buf.toString());
      });
    },
    onInbound(fn) {
      ws.on("message", fn);
      ws.on("pong", fn);
      ws.on("ping", fn);
    },
    onClose(fn) {
      ws.on("close", (code: number) => fn(`close ${code}`));
      ws.on("error", (err: Error) => fn(`socket_error: ${err.message}`));
    },
  };
}
