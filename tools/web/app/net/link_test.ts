import { gzipSync } from "node:zlib";
import { assert, assertEquals } from "../../../../tests/assert.ts";
import type { ServerMessage } from "../../../../protocol/mod.ts";
import { encodeGzipFrame } from "../../../../protocol/mod.ts";
import { Link, type LinkState } from "./link.ts";

// The page's socket against a real WebSocket server (Deno's, in this process). spec: Binary
// messages > 3 ("Order is the socket's"; the client dials with deflate=1); ping ("Every client
// sends ping after 15 seconds of quiet, and the expiry closes the socket so the ordinary
// reconnect runs"; "A probe already out is neither asked again nor re-armed").

interface Server {
  url: string;
  dials: string[];
  /** What each connection received, by connection. */
  received: string[][];
  sockets: WebSocket[];
  close(): Promise<void>;
}

function serve(onOpen: (socket: WebSocket) => void): Server {
  const dials: string[] = [];
  const received: string[][] = [];
  const sockets: WebSocket[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    dials.push(new URL(req.url).search);
    const { socket, response } = Deno.upgradeWebSocket(req);
    const mine: string[] = [];
    received.push(mine);
    sockets.push(socket);
    socket.onopen = () => onOpen(socket);
    socket.onmessage = (e) => mine.push(String(e.data));
    return response;
  });
  return {
    url: `ws://127.0.0.1:${server.addr.port}/socket`,
    dials,
    received,
    sockets,
    async close() {
      for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.close();
      await server.shutdown();
    },
  };
}

function link(url: string, timing: { quietMs: number; deadlineMs: number }) {
  const messages: ServerMessage[] = [];
  const states: LinkState[] = [];
  let opens = 0;
  const waiters: (() => void)[] = [];
  const l = new Link(url, {
    onOpen: () => opens++,
    onMessage: (m) => {
      messages.push(m);
      waiters.splice(0).forEach((w) => w());
    },
    onBinary: () => {},
    onState: (s) => {
      states.push(s);
      waiters.splice(0).forEach((w) => w());
    },
  }, timing);
  const until = async (cond: () => boolean) => {
    while (!cond()) await new Promise<void>((r) => waiters.push(r));
  };
  return { l, messages, states, opens: () => opens, until };
}

Deno.test("link: kind-3 frames inflate in socket order, behind the tag, after dialling deflate=1", async () => {
  const snapshot = { kind: "snapshot", subject: "home", data: "x".repeat(70_000) };
  const s = serve((socket) => {
    socket.send(encodeGzipFrame(gzipSync(JSON.stringify(snapshot))) as Uint8Array<ArrayBuffer>);
    socket.send(JSON.stringify({ kind: "pong" }));
  });
  const t = link(s.url, { quietMs: 60_000, deadlineMs: 60_000 });
  t.l.start();
  await t.until(() => t.messages.length === 2);
  assertEquals(s.dials, ["?deflate=1"]);
  assertEquals(t.messages.map((m) => m.kind), ["snapshot", "pong"]);
  t.l.stop();
  await s.close();
});

Deno.test("link: quiet draws one ping; no answer by the deadline closes the socket and redials", async () => {
  const s = serve(() => {}); // a peer that reads and never writes: a half-open link
  const t = link(s.url, { quietMs: 100, deadlineMs: 400 });
  t.l.start();
  await t.until(() => t.opens() === 2);
  // One probe per quiet spell, not re-armed while it is out.
  assertEquals(s.received[0], [JSON.stringify({ kind: "ping" })]);
  assert(t.states.includes("down"), "the expiry took the link down before the redial");
  t.l.stop();
  await s.close();
});

Deno.test("link: any frame answers the probe", async () => {
  const s = serve(() => {});
  const t = link(s.url, { quietMs: 100, deadlineMs: 300 });
  t.l.start();
  await t.until(() => t.opens() === 1);
  // The server answers each ping with pong: the link stays up through several deadlines.
  s.sockets[0].onmessage = (e) => {
    s.received[0].push(String(e.data));
    s.sockets[0].send(JSON.stringify({ kind: "pong" }));
  };
  await t.until(() => t.messages.length >= 5);
  assertEquals(t.opens(), 1);
  assertEquals(t.states.filter((x) => x === "down").length, 0);
  t.l.stop();
  await s.close();
});

Deno.test("link: the network back, a link waiting out its backoff dials at once", async () => {
  let refuse = true;
  const s = serve((socket) => {
    if (refuse) socket.close();
  });
  const t = link(s.url, { quietMs: 60_000, deadlineMs: 60_000 });
  t.l.start();
  await t.until(() => t.states.at(-1) === "down");
  refuse = false;
  // The browser's `online`: the dial starts now, not when the backoff's timer would fire.
  t.l.redialNow();
  assertEquals(t.states.at(-1), "connecting");
  await t.until(() => t.opens() === 2 && t.states.at(-1) === "open");
  assertEquals(s.dials.length, 2);
  // An open link is not dialled again.
  t.l.redialNow();
  assertEquals(s.dials.length, 2);
  t.l.stop();
  await s.close();
});
