import { assert, assertEquals } from "../../../../tests/assert.ts";
import { Forges } from "./forges.ts";

// The page's list of forges (docs/web.md "Several forges"): one client per address, in order;
// an address added in the page is read, refused in words when it is no address or already
// listed, dialled, and kept; one removed stops its socket and is forgotten; the last one stays.

const BASE = "http://127.0.0.1:8791/";

/** A socket server standing in for a forge's /socket: counts the sockets dialled and closed. */
function socketServer() {
  const opened: WebSocket[] = [];
  let closed = 0;
  let closedOne = () => {};
  let openedOne = () => {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    opened.push(socket);
    socket.onopen = () => openedOne();
    socket.onclose = () => {
      closed++;
      closedOne();
    };
    return response;
  });
  return {
    host: `127.0.0.1:${server.addr.port}`,
    opened,
    closedCount: () => closed,
    nextOpen: () => new Promise<void>((resolve) => (openedOne = resolve)),
    nextClose: () => new Promise<void>((resolve) => (closedOne = resolve)),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("forges: an address is read, refused in words, or dialled and kept", async () => {
  await using srv = socketServer();
  const kept: string[][] = [];
  const forges = new Forges(["ws://127.0.0.1:8790/socket"], {
    base: BASE,
    keep: (urls) => kept.push(urls),
  });
  assertEquals(forges.list.map((c) => c.host), ["127.0.0.1:8790"]);

  assertEquals(forges.add("  "), "the address is empty");
  assertEquals(forges.add("127.0.0.1:8790"), "127.0.0.1:8790 is already in the list");
  assertEquals(
    forges.add("ftp://box.lan"),
    "ftp://box.lan: a forge is reached over ws, wss, http or https",
  );
  assertEquals(kept, [], "nothing kept for an address refused");

  let heard = 0;
  forges.listen(() => heard++);
  const connected = srv.nextOpen();
  assertEquals(forges.add(srv.host), null);
  await connected;
  assertEquals(srv.opened.length, 1, "one socket for the forge added");
  assertEquals(forges.list.map((c) => c.host), ["127.0.0.1:8790", srv.host]);
  assertEquals(kept, [["ws://127.0.0.1:8790/socket", `ws://${srv.host}/socket`]]);
  assert(heard >= 1, "the page heard the list move");

  // Removed: its socket closes and the list kept is the one left; the last forge stays.
  const closing = srv.nextClose();
  forges.remove(srv.host);
  await closing;
  assertEquals(srv.closedCount(), 1);
  assertEquals(forges.list.map((c) => c.host), ["127.0.0.1:8790"]);
  assertEquals(kept.at(-1), ["ws://127.0.0.1:8790/socket"]);
  forges.remove("127.0.0.1:8790");
  assertEquals(forges.list.length, 1, "the last forge is never removed");
  assertEquals(forges.byHost("127.0.0.1:8790")?.host, "127.0.0.1:8790");
  assertEquals(forges.byHost(srv.host), null);
});
