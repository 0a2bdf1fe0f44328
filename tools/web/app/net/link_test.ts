import { gzipSync } from "node:zlib";
import { assertEquals } from "../../../../tests/assert.ts";
import { ServerMessage } from "../../../../protocol/mod.ts";
import { encodeGzipFrame } from "../../../../protocol/mod.ts";
import { halfOpenProxy } from "../../../../tests/half_open_proxy.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import { DEADLINE_MS, Link, type LinkState, type LinkTiming, QUIET_MS } from "./link.ts";

// The page's socket against a real WebSocket server (Deno's, in this process). spec: Binary
// messages > 3 ("Order is the socket's"; the client dials with deflate=1); ping ("Every client
// sends ping after 15 seconds of quiet, and the expiry closes the socket so the ordinary
// reconnect runs"; "A probe already out is neither asked again nor re-armed"); Reaching it (a
// browser's worst case from the last frame is 15 s plus its 65 s deadline). The probe's timers
// run on a clock the test moves by hand; the sockets are real. The probe and the backoff alone
// are tested in tools/reconnect/.

/** Everyone waiting for something to happen, woken by any frame either side reads. */
const waiters: (() => void)[] = [];
const wake = () => waiters.splice(0).forEach((w) => w());
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise<void>((r) => waiters.push(r));
};

interface Server {
  url: string;
  port: number;
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
    socket.onmessage = (e) => {
      mine.push(String(e.data));
      wake();
    };
    return response;
  });
  return {
    url: `ws://127.0.0.1:${server.addr.port}/socket`,
    port: server.addr.port,
    dials,
    received,
    sockets,
    async close() {
      for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.close();
      await server.shutdown();
    },
  };
}

function link(url: string, timing: LinkTiming) {
  const messages: ServerMessage[] = [];
  const states: LinkState[] = [];
  let opens = 0;
  const l = new Link(url, {
    onOpen: () => opens++,
    onMessage: (m) => {
      messages.push(ServerMessage.parse(m));
      wake();
    },
    onBinary: () => {},
    onState: (s) => {
      states.push(s);
      wake();
    },
  }, timing);
  return { l, messages, states, opens: () => opens, until };
}

Deno.test("link: kind-3 frames inflate in socket order, behind the tag, after dialling deflate=1", async () => {
  const snapshot = { kind: "snapshot", subject: "home", data: "x".repeat(70_000) };
  const s = serve((socket) => {
    socket.send(encodeGzipFrame(gzipSync(JSON.stringify(snapshot))) as Uint8Array<ArrayBuffer>);
    socket.send(JSON.stringify({ kind: "pong" }));
  });
  const t = link(s.url, { quietMs: QUIET_MS, deadlineMs: DEADLINE_MS, clock: new ManualClock() });
  t.l.start();
  await t.until(() => t.messages.length === 2);
  assertEquals(s.dials, ["?deflate=1"]);
  assertEquals(t.messages.map((m) => m.kind), ["snapshot", "pong"]);
  t.l.stop();
  await s.close();
});

Deno.test("link: quiet draws one ping; no answer by the deadline closes the socket and redials", async () => {
  const s = serve(() => {}); // a peer that reads and never writes
  const clock = new ManualClock();
  const t = link(s.url, { quietMs: QUIET_MS, deadlineMs: DEADLINE_MS, clock });
  t.l.start();
  await t.until(() => t.opens() === 1);
  clock.advanceBy(QUIET_MS);
  await t.until(() => s.received[0].length === 1);
  // One probe per quiet spell, not re-armed while it is out.
  clock.advanceBy(DEADLINE_MS - 1);
  assertEquals(s.received[0], [JSON.stringify({ kind: "ping" })]);
  assertEquals(t.states.at(-1), "open");
  clock.advanceBy(1);
  assertEquals(t.states.at(-1), "down", "the expiry took the link down before the redial");
  clock.advanceBy(10_000 * 1.25); // past the longest first backoff
  await t.until(() => t.opens() === 2);
  t.l.stop();
  await s.close();
});

Deno.test("link: a half-open socket is given up 15 s + 65 s after its last frame, not later", async () => {
  const s = serve(() => {});
  const proxy = halfOpenProxy(s.port);
  const clock = new ManualClock();
  const t = link(proxy.url, { quietMs: QUIET_MS, deadlineMs: DEADLINE_MS, clock });
  t.l.start();
  await t.until(() => t.opens() === 1);
  // The network goes: nothing crosses either way and no close will ever arrive.
  proxy.freeze();
  clock.advanceBy(QUIET_MS + DEADLINE_MS - 1);
  assertEquals(t.states.at(-1), "open");
  // spec: a browser's worst case is 15 s plus its deadline. The socket is given up now, at
  // once, not when the browser's closing handshake would have timed out.
  clock.advanceBy(1);
  assertEquals(t.states.at(-1), "down");
  clock.advanceBy(10_000 * 1.25);
  await t.until(() => t.opens() === 2 && t.states.at(-1) === "open");
  // The probe never reached the server: the first link really was half-open.
  assertEquals(s.received[0], []);
  t.l.stop();
  proxy.close();
  await s.close();
});

Deno.test("link: the network back, a link waiting out its backoff dials at once", async () => {
  let refuse = true;
  const s = serve((socket) => {
    if (refuse) socket.close();
  });
  const t = link(s.url, { quietMs: QUIET_MS, deadlineMs: DEADLINE_MS, clock: new ManualClock() });
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
