import { WebSocket as NodeSocket } from "ws";
import { assert, assertEquals } from "../../tests/assert.ts";
import { until } from "../../tests/harness.ts";
import { HIGH_BYTES, relaysHolding, relaySocket } from "./relay.ts";

const MiB = 1024 * 1024;
const FRAMES = 48;

/**
 * A stand-in for forge's socket that sends `FRAMES` numbered 1 MiB frames, then "done", each
 * once the one before has left (as a sender that respects its reader does).
 */
function burstServer() {
  const seen = { sent: 0 };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => {
      const pace = setInterval(() => {
        if (socket.readyState !== WebSocket.OPEN) return clearInterval(pace);
        if (socket.bufferedAmount > 0) return;
        if (seen.sent === FRAMES) {
          socket.send("done");
          return clearInterval(pace);
        }
        const frame = new Uint8Array(MiB);
        new DataView(frame.buffer).setUint32(0, seen.sent++);
        socket.send(frame);
      }, 1);
    };
    return response;
  });
  return { server, seen, url: `ws://127.0.0.1:${server.addr.port}/socket` };
}

Deno.test("web relay: a page that stops reading holds forge back, and then gets every frame", async () => {
  const forge = burstServer();
  const relay = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (req) => relaySocket(req, forge.url),
  );
  const page = new NodeSocket(`ws://127.0.0.1:${relay.addr.port}/socket`);
  const got: (number | string)[] = [];
  page.on("message", (data: Buffer, isBinary: boolean) => {
    got.push(isBinary ? data.readUInt32BE(0) : data.toString());
  });
  await new Promise((resolve) => page.once("open", resolve));
  // The page reads nothing: past HIGH_BYTES the relay stops reading forge, so forge is held
  // back (its frames wait in its own socket) before it has sent them all.
  page.pause();
  await until(() => relaysHolding() === 1, 30_000, "the relay held forge back");
  assert(forge.seen.sent < FRAMES, `forge was held back at ${forge.seen.sent} MiB`);
  assert(HIGH_BYTES < FRAMES * MiB);

  page.resume();
  await until(() => got.at(-1) === "done", 30_000, "every frame reached the page");
  assertEquals(got, [...Array.from({ length: FRAMES }, (_, i) => i), "done"]);
  await until(() => relaysHolding() === 0, 10_000, "the relay reads forge again");

  page.close();
  await relay.shutdown();
  await forge.server.shutdown();
});
