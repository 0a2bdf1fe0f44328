/**
 * Transport bench: what ending a connection to a peer that stopped reading leaves behind, on
 * `Deno.upgradeWebSocket` and on node:http + `ws` (forge's transport). The reason forge's socket
 * is not Deno's own: a connection ended on a bound must give its TCP socket back at once.
 *
 *   tools/deno.sh task bench transport [--rounds 3] [--mib 8] [--hold-secs 10]
 *
 * Both servers run in this process on loopback. A raw client (tests/raw_socket.ts) upgrades and
 * then never reads; the server queues --mib MiB of 64 KiB binary frames to it, and ends it the
 * strongest way its API allows:
 *   deno   `socket.close(1008)`: the only public way (the close frame queues behind the data)
 *   ws     `resetAndDestroy()` on the upgraded TCP socket, then `terminate()`: what forge does
 * Then /proc/self/net/tcp is read every 10 ms for the server's end of that connection: how long
 * until no fd holds it, capped at --hold-secs, and the bytes still queued in the kernel for it.
 * The arms alternate round by round; the ws arm's time is the floor (the kernel's own release).
 */
import { createServer } from "node:http";
import type { Socket } from "node:net";
import { WebSocketServer } from "ws";
import { RawSocket } from "../../tests/raw_socket.ts";
import { spread } from "./support/stats.ts";
import { numberFlag } from "./support/flags.ts";

const ROUNDS = numberFlag("--rounds", 3);
const MIB = numberFlag("--mib", 8);
const HOLD_MS = numberFlag("--hold-secs", 10) * 1000;
const CHUNK = new Uint8Array(64 * 1024);

/** The server's end of one loopback connection: held by an fd, and its unsent bytes. */
function serverSide(serverPort: number, clientPort: number) {
  const hex = (p: number) => `:${p.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const table of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    const row = Deno.readTextFileSync(table).split("\n").slice(1).map((l) => l.trim().split(/\s+/))
      .find((r) =>
        r.length > 9 && r[1].endsWith(hex(serverPort)) && r[2].endsWith(hex(clientPort))
      );
    if (row) return { held: row[9] !== "0", queued: parseInt(row[4].split(":")[0], 16) };
  }
  return { held: false, queued: 0 };
}

interface Arm {
  port: number;
  /** Resolves with a function that queues bytes to the newest connection and then ends it. */
  connected: () => Promise<{ send(b: Uint8Array): void; end(): void }>;
  stop(): Promise<void>;
}

function denoArm(): Arm {
  let next = Promise.withResolvers<{ send(b: Uint8Array): void; end(): void }>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () =>
      next.resolve({ send: (b) => socket.send(b), end: () => socket.close(1008) });
    return response;
  });
  return {
    port: server.addr.port,
    connected: async () => {
      const got = await next.promise;
      next = Promise.withResolvers();
      return got;
    },
    stop: () => server.shutdown(),
  };
}

async function wsArm(): Promise<Arm> {
  const http = createServer();
  const wss = new WebSocketServer({ noServer: true });
  let next = Promise.withResolvers<{ send(b: Uint8Array): void; end(): void }>();
  http.on("upgrade", (req, tcp: Socket, head) => {
    wss.handleUpgrade(req, tcp, head, (ws) =>
      next.resolve({
        send: (b) => ws.send(b),
        end: () => {
          (tcp as Socket & { resetAndDestroy(): void }).resetAndDestroy();
          ws.terminate();
        },
      }));
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  return {
    port: (http.address() as { port: number }).port,
    connected: async () => {
      const got = await next.promise;
      next = Promise.withResolvers();
      return got;
    },
    stop: () => new Promise<void>((r) => http.close(() => r())),
  };
}

const released: Record<string, number[]> = { deno: [], ws: [] };
const leftQueued: Record<string, number[]> = { deno: [], ws: [] };
const heldOut: Record<string, number> = { deno: 0, ws: 0 };

async function round(name: "deno" | "ws", arm: Arm) {
  const raw = await RawSocket.open(arm.port, { answerPings: false });
  raw.pause();
  const conn = await arm.connected();
  for (let sent = 0; sent < MIB * 1024 * 1024; sent += CHUNK.length) conn.send(CHUNK);
  // Let the writes back up into both kernels' buffers before the end.
  await new Promise((r) => setTimeout(r, 300));
  conn.end();
  const t0 = performance.now();
  let side = serverSide(arm.port, raw.localPort);
  while (side.held && performance.now() - t0 < HOLD_MS) {
    await new Promise((r) => setTimeout(r, 10));
    side = serverSide(arm.port, raw.localPort);
  }
  if (side.held) {
    heldOut[name]++;
    leftQueued[name].push(side.queued / 2 ** 20);
  } else released[name].push(performance.now() - t0);
  raw.close();
}

for (let r = 0; r < ROUNDS; r++) {
  for (const name of (r % 2 ? ["ws", "deno"] : ["deno", "ws"]) as ("deno" | "ws")[]) {
    const arm = name === "deno" ? denoArm() : await wsArm();
    await round(name, arm);
    await arm.stop();
  }
}
console.log(
  `transport: ${MIB} MiB queued to a peer that never reads, then ended; ${ROUNDS} rounds, ` +
    `watched ${HOLD_MS / 1000} s:`,
);
for (const name of ["deno", "ws"]) {
  const freed = released[name].length
    ? `released in ${spread(released[name], 1)} ms (${released[name].length} of ${ROUNDS})`
    : "never released";
  const held = heldOut[name]
    ? `; still held after ${HOLD_MS / 1000} s in ${heldOut[name]} of ${ROUNDS}, ` +
      `${spread(leftQueued[name], 1)} MiB unsent in the kernel`
    : "";
  console.log(`  ${name.padEnd(5)} ${freed}${held}`);
}
