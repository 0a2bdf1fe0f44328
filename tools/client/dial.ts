import { ConnectFailed } from "./errors.ts";

/** How long the refusal probe waits for forge's status line. */
const PROBE_MS = 5_000;

/** A WebSocket to `url`, with `origin` as the header a browser would send; not yet open. */
export function socketTo(url: string, origin?: string): WebSocket {
  const socket = origin
    ? new WebSocket(url, { headers: { origin } } as unknown as string[])
    : new WebSocket(url);
  socket.binaryType = "arraybuffer";
  return socket;
}

/**
 * Waits for `socket` to open. One that does not rejects with a ConnectFailed in forge's words:
 * the engine's error says only that the upgrade failed, so the status is read by asking the same
 * upgrade again over a plain connection. spec: The socket > Reaching it (a refused origin is
 * answered 403 before any greeting).
 */
export async function opened(socket: WebSocket, url: string, origin?: string): Promise<void> {
  const open = Promise.withResolvers<boolean>();
  socket.addEventListener("open", () => open.resolve(true));
  socket.addEventListener("error", () => open.resolve(false));
  if (!await open.promise) throw await explainFailure(url, origin);
}

/** Why the socket at `url` did not open, read from the status its upgrade is answered with. */
export async function explainFailure(url: string, origin?: string): Promise<ConnectFailed> {
  let line: string;
  try {
    line = await handshakeStatus(url, origin ?? null);
  } catch (err) {
    return new ConnectFailed(url, null, `nothing answered at ${url} (${netWords(err)})`);
  }
  const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(line)?.[1] ?? NaN);
  if (!Number.isFinite(status)) {
    return new ConnectFailed(url, null, `${url} did not answer as forge does (no HTTP status)`);
  }
  return new ConnectFailed(url, status, `forge refused the connection (${statusWords(status)})`);
}

/** An upgrade's status as a person reads it, with what to do about the ones forge sends. */
export function statusWords(status: number): string {
  switch (status) {
    case 403:
      return "HTTP 403: the page origin is not allowed; see [server] allowed_origins";
    case 404:
      return "HTTP 404: forge serves its socket at /socket only";
    case 426:
      return "HTTP 426: the path is a WebSocket endpoint and the request was not an upgrade";
    case 101:
      return "HTTP 101: the upgrade was accepted, then the connection failed";
    default:
      return `HTTP ${status}`;
  }
}

function netWords(err: unknown): string {
  if (err instanceof Deno.errors.ConnectionRefused) return "connection refused";
  if (err instanceof Deno.errors.NotCapable) return "this process may not reach the network";
  if (err instanceof Deno.errors.TimedOut) return "it did not answer in time";
  if (err instanceof Deno.errors.NotFound) return "the host name does not resolve";
  return "the connection failed";
}

/**
 * Asks for the upgrade at `url` over a plain TCP (or TLS, for `wss:`) connection and answers the
 * HTTP status line the server gave: the refusal's own words, which a WebSocket hides.
 */
export async function handshakeStatus(url: string, origin: string | null): Promise<string> {
  const u = new URL(url);
  const hostname = u.hostname.replace(/^\[|\]$/g, "");
  const port = Number(u.port || (u.protocol === "wss:" ? 443 : 80));
  const conn = u.protocol === "wss:"
    ? await Deno.connectTls({ hostname, port })
    : await Deno.connect({ hostname, port });
  const timer = setTimeout(() => conn.close(), PROBE_MS);
  try {
    const request = `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n` +
      `Upgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n` +
      (origin === null ? "" : `Origin: ${origin}\r\n`) + "\r\n";
    await conn.write(new TextEncoder().encode(request));
    const buf = new Uint8Array(4096);
    let text = "";
    while (!text.includes("\r\n")) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    return text.split("\r\n")[0] ?? "";
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // Closed already: by the server after its status, or by the probe's own bound.
    }
  }
}
