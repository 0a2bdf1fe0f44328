/**
 * The page's socket carried to forge when the page is served over TLS. A browser will not open
 * a plain `ws:` socket from an https page to another machine, and forge speaks plain `ws:` on
 * loopback or a private network (spec: The socket > Reaching it), so the web program, which holds
 * the certificate, carries each frame both ways unchanged. It passes the page's Origin on:
 * forge's own policy decides, and a page whose origin is not in `[server] allowed_origins` is
 * refused as it would be directly.
 *
 * The relay holds at most about `HIGH_BYTES` for a page that reads slowly (a phone on a weak
 * link): past it, it stops reading forge until the page has taken most of it, so the backlog
 * waits in forge's own socket, where forge's bounds see it (a terminal viewer that fell behind is
 * skipped forward, as it would be directly), rather than growing without bound here.
 */
import { Buffer } from "node:buffer";
import { type RawData, WebSocket as Upstream } from "ws";

/** How long forge has to accept the socket before the page is told it cannot be reached. */
const OPEN_MS = 15_000;
/** Bytes waiting toward the page past which forge is not read... */
export const HIGH_BYTES = 4 * 1024 * 1024;
/** ...until the page's backlog is down to this. */
const LOW_BYTES = 1024 * 1024;
/** How often a paused relay looks at the page's backlog (Deno's socket has no drain event). */
const DRAIN_POLL_MS = 20;

let holding = 0;
/** How many pages' relays are holding forge back now (a page behind by over `HIGH_BYTES`). */
export function relaysHolding(): number {
  return holding;
}

type Frame = string | Uint8Array<ArrayBuffer>;

/** Forge's socket for one page, open, with what forge said before the page's side was carried. */
interface Dialled {
  upstream: Upstream;
  /** Frames in order, from the first: forge greets the moment it accepts. */
  early: Frame[];
  /** Stops keeping frames in `early` (the carrier reads them from here on). */
  stopKeeping(): void;
}

/**
 * Dials forge for one page's socket; resolves with the open socket, or null when refused. Frames
 * are kept from the socket's first moment: `ws` can hand over forge's greeting before a listener
 * added once `open` resolved this promise would hear it (seen: 1 page in 7 never greeted).
 */
function dial(url: string, origin: string | null): Promise<Dialled | null> {
  const upstream = new Upstream(url, { headers: origin ? { origin } : {} });
  const early: Frame[] = [];
  const keep = (data: RawData, isBinary: boolean) => early.push(frameOf(data, isBinary));
  upstream.on("message", keep);
  const stopKeeping = () => upstream.off("message", keep);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      upstream.terminate();
      resolve(null);
    }, OPEN_MS);
    const give = (socket: Upstream | null) => {
      clearTimeout(timer);
      if (socket === null) stopKeeping();
      resolve(socket && { upstream: socket, early, stopKeeping });
    };
    upstream.once("open", () => give(upstream));
    // A refusal (403), a forge that is down: the page is told in words, never the library's.
    upstream.once("error", () => give(null));
    upstream.once("unexpected-response", () => {
      upstream.terminate();
      give(null);
    });
  });
}

/**
 * Answers a page's `/socket` upgrade: forge is dialled first with the page's origin and query
 * (`?deflate=1`), and only an accepted socket is upgraded; a refusal or a forge that is down
 * answers 502 in words, which the page sees as the socket failing, as it would directly.
 */
export async function relaySocket(req: Request, forge: string): Promise<Response> {
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return new Response("forge web: /socket is a WebSocket", { status: 426 });
  }
  const target = new URL(forge);
  target.search = new URL(req.url).search;
  const dialled = await dial(target.href, req.headers.get("origin"));
  if (!dialled) {
    return new Response(
      `forge web: forge at ${forge} did not accept this page's socket (is it running, and is ` +
        "this page's origin in its [server] allowed_origins?)",
      { status: 502 },
    );
  }
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.binaryType = "arraybuffer";
  carry(dialled, socket);
  return response;
}

/** Carries frames both ways, text as text and binary as binary, with the page's backlog bound. */
function carry({ upstream, early, stopKeeping }: Dialled, socket: WebSocket): void {
  // What forge said before the page's side is open (its greeting among it) waits, in order.
  stopKeeping();
  let drain: ReturnType<typeof setInterval> | undefined;
  const stopDrain = () => {
    if (drain === undefined) return;
    clearInterval(drain);
    drain = undefined;
    holding--;
  };
  const toPage = (frame: Frame) => {
    socket.send(frame);
    if (drain !== undefined || socket.bufferedAmount <= HIGH_BYTES) return;
    upstream.pause();
    holding++;
    drain = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return stopDrain();
      if (socket.bufferedAmount > LOW_BYTES) return;
      stopDrain();
      upstream.resume();
    }, DRAIN_POLL_MS);
  };
  upstream.on("message", (data: RawData, isBinary: boolean) => {
    const frame = frameOf(data, isBinary);
    if (socket.readyState === WebSocket.OPEN) toPage(frame);
    else early.push(frame);
  });
  socket.onopen = () => {
    for (const frame of early.splice(0)) toPage(frame);
  };
  socket.onmessage = (e: MessageEvent<string | ArrayBuffer>) => {
    if (upstream.readyState !== Upstream.OPEN) return;
    upstream.send(typeof e.data === "string" ? e.data : new Uint8Array(e.data));
  };
  socket.onclose = socket.onerror = () => {
    stopDrain();
    upstream.close();
  };
  upstream.on("error", () => upstream.terminate());
  upstream.on("close", () => {
    stopDrain();
    if (socket.readyState === WebSocket.OPEN) socket.close();
    else if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
  });
}

/** A frame as the page gets it: text as text, binary as bytes. */
function frameOf(data: RawData, isBinary: boolean): Frame {
  return isBinary ? new Uint8Array(bytesOf(data)) : bytesOf(data).toString("utf8");
}

/** One Buffer of a frame `ws` may hand over in parts. */
function bytesOf(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
