/**
 * The page's socket carried to forge when the page is served over TLS. A browser will not open
 * a plain `ws:` socket from an https page to another machine, and forge speaks plain `ws:` on
 * loopback or a private network (spec: The socket > Reaching it), so the web program, which holds
 * the certificate, carries each frame both ways unchanged. It passes the page's Origin on:
 * forge's own policy decides, and a page whose origin is not in `[server] allowed_origins` is
 * refused as it would be directly.
 */

type Frame = string | ArrayBuffer;

/** How long forge has to accept the socket before the page is told it cannot be reached. */
const OPEN_MS = 15_000;

/** Dials forge for one page's socket; resolves with the open socket, or null when refused. */
function dial(url: string, origin: string | null): Promise<WebSocket | null> {
  const upstream = new WebSocket(url, origin ? { headers: { origin } } : undefined);
  upstream.binaryType = "arraybuffer";
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      upstream.close();
      resolve(null);
    }, OPEN_MS);
    upstream.onopen = () => {
      clearTimeout(timer);
      resolve(upstream);
    };
    upstream.onerror = upstream.onclose = () => {
      clearTimeout(timer);
      resolve(null);
    };
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
  const search = new URL(req.url).search;
  const target = new URL(forge);
  target.search = search;
  const upstream = await dial(target.href, req.headers.get("origin"));
  if (!upstream) {
    return new Response(
      `forge web: forge at ${forge} did not accept this page's socket (is it running, and is ` +
        "this page's origin in its [server] allowed_origins?)",
      { status: 502 },
    );
  }
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.binaryType = "arraybuffer";
  // Forge greets at once; what it says before the page's side is open waits, in order.
  const early: Frame[] = [];
  upstream.onmessage = (e: MessageEvent<Frame>) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(e.data);
    else early.push(e.data);
  };
  socket.onopen = () => {
    for (const frame of early.splice(0)) socket.send(frame);
  };
  socket.onmessage = (e: MessageEvent<Frame>) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(e.data);
  };
  socket.onclose = () => upstream.close();
  socket.onerror = () => upstream.close();
  upstream.onclose = () => {
    if (socket.readyState === WebSocket.OPEN) socket.close();
    else if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
  };
  return response;
}
