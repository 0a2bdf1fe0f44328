import { assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";

async function handshake(port: number, origin: string | null): Promise<number> {
  const headers: Record<string, string> = {
    connection: "Upgrade",
    upgrade: "websocket",
    "sec-websocket-version": "13",
    "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
  };
  if (origin !== null) headers.origin = origin;
  const res = await fetch(`http://127.0.0.1:${port}/socket`, { headers });
  await res.body?.cancel();
  return res.status;
}

// spec: Reaching it: a refusal happens before the greeting, answers 403, and logs
// socket_origin_refused with the origin and the peer.
Deno.test("a foreign origin is refused with 403 before any greeting, and logged", async () => {
  await using t = await testServer(`[server]\nallowed_origins = ["https://lan.example:8443"]\n`);
  const port = t.server.addr.port;
  assertEquals(await handshake(port, "http://localhost.evil.com"), 403);
  assertEquals(await handshake(port, "http://[::1].evil.com"), 403);
  assertEquals(await handshake(port, "http://localhost:5173"), 101);
  assertEquals(await handshake(port, "https://lan.example:8443"), 101);
  assertEquals(await handshake(port, null), 101);
  const refused = t.log.records.filter((r) => r.event === "socket_origin_refused") as unknown as {
    origin: string;
    peer: string;
  }[];
  assertEquals(refused.map((r) => r.origin), [
    "http://localhost.evil.com",
    "http://[::1].evil.com",
  ]);
  assertEquals(refused.every((r) => /^127\.0\.0\.1:\d+$/.test(r.peer)), true);
});

Deno.test("a browser-like client with a loopback origin gets the greeting", async () => {
  await using t = await testServer(null);
  const c = await t.connect({ origin: "http://127.0.0.1:5173" });
  assertEquals((await c.next()).kind, "greeting");
});

Deno.test("the protocol client's origin header is what the server judges", async () => {
  await using t = await testServer(null);
  let refused = false;
  try {
    await t.connect({ origin: "http://localhost.evil.com" });
  } catch {
    refused = true;
  }
  assertEquals(refused, true);
});
