import { assertEquals } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import { ForgeClient } from "./client.ts";

// spec: dictate_models - "when the preflight finishes loading the models - which it announces
// with that update alone - a page reads again rather than drawing pending chips"; update > home's
// two arms (a keyless update is a home read). A burst is one read, on the client's clock.

/** A socket server that keeps every subscribe and unsubscribe it is sent. */
async function listening() {
  const got: { kind: string; what: unknown }[] = [];
  const ready = Promise.withResolvers<WebSocket>();
  let arrived = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => ready.resolve(socket);
    socket.onmessage = (e) => {
      got.push(JSON.parse(e.data));
      arrived.resolve();
    };
    return response;
  });
  const clock = new ManualClock();
  const c = new ForgeClient(`ws://127.0.0.1:${server.addr.port}/socket`, clock);
  c.start();
  const socket = await ready.promise;
  while (c.state.link !== "open") await new Promise<void>((r) => c.store.listen(r));
  const reads = (what: string) =>
    got.filter((m) => m.kind === "subscribe" && m.what === what).length;
  // One socket keeps its order: once a ping sent after them is in, everything before it is.
  const fence = async () => {
    const pings = got.filter((m) => m.kind === "ping").length;
    c.send({ kind: "ping" });
    await until(() => got.filter((m) => m.kind === "ping").length > pings);
  };
  const until = async (cond: () => boolean) => {
    while (!cond()) {
      await arrived.promise;
      arrived = Promise.withResolvers<void>();
    }
  };
  // How many updates the client has read: the re-read is armed once they are in.
  let seen = 0;
  c.updateReaders.add(() => seen++);
  const heard = async (n: number) => {
    while (seen < n) await new Promise<void>((r) => c.store.listen(r));
  };
  const stop = async () => {
    c.link.stop();
    await server.shutdown();
  };
  return { c, clock, socket, reads, fence, heard, stop };
}

Deno.test("client: dictate_availability reads the models again, once for a burst", async () => {
  const { c, clock, socket, reads, fence, heard, stop } = await listening();
  c.hold("dictate_models", true);
  for (let i = 0; i < 3; i++) {
    socket.send(JSON.stringify({ kind: "update", update: "dictate_availability" }));
  }
  await heard(3);
  await fence();
  assertEquals([reads("dictate_models"), reads("home")], [1, 0], "nothing before the bound");
  clock.advanceBy(150);
  await fence();
  assertEquals([reads("dictate_models"), reads("home")], [2, 1]);
  // Let go of the models: the announcement is a home read alone.
  c.hold("dictate_models", false);
  socket.send(JSON.stringify({ kind: "update", update: "dictate_availability" }));
  await heard(4);
  clock.advanceBy(150);
  await fence();
  assertEquals([reads("dictate_models"), reads("home")], [2, 2]);
  await stop();
});
