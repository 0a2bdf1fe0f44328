// The transport writes a turn's first small frame at once, corks the rest and writes text
// frames it framed itself beside frames `ws` framed (binary): a client must still get every
// frame whole and in the order it was sent.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Socket } from "node:net";
import { memoryLogger } from "./log.ts";
import { serveSocket, type Transport } from "./socket.ts";
import { textFrame } from "./ws_frame.ts";

/** `/socket` on a free loopback port, handing each accepted transport to `accept`. */
function served(accept: (transport: Transport) => void) {
  return serveSocket({ hostname: "127.0.0.1", port: 0 }, {
    log: memoryLogger(),
    policy: () => ({ bind: "127.0.0.1", port: 0, allowed: [] }),
    accept,
  });
}

/** A served socket, the transport it accepted and an open client; disposing closes both. */
async function connected() {
  const accepted = Promise.withResolvers<Transport>();
  const server = await served((transport) => accepted.resolve(transport));
  const client = new WebSocket(`ws://127.0.0.1:${server.addr.port}/socket`);
  client.binaryType = "arraybuffer";
  await new Promise((resolve) => client.onopen = resolve);
  return {
    transport: await accepted.promise,
    client,
    async [Symbol.asyncDispose]() {
      client.close();
      await server.stop();
    },
  };
}

Deno.test("frames written at once, corked, forge-framed and ws-framed arrive whole and in order", async () => {
  await using pair = await connected();
  const { transport, client } = pair;
  const got: string[] = [];
  const all = Promise.withResolvers<void>();
  client.onmessage = (e) => {
    got.push(typeof e.data === "string" ? e.data : `binary ${[...new Uint8Array(e.data)]}`);
    if (got.length === 7) all.resolve();
  };
  const big = "B".repeat(20 * 1024); // over the cork bound: written at once, framed by forge
  // One turn: the first leaves at once, the rest are corked until the turn ends.
  transport.send("first");
  transport.send("second é");
  transport.send(big);
  transport.send(new Uint8Array([4, 1, 2]));
  transport.send("after the binary");
  await new Promise((resolve) => setTimeout(resolve, 0));
  // A later turn, and the same string again (its frame is reused).
  transport.send("after the binary");
  transport.send("last");
  await all.promise;
  assertEquals(got, [
    "first",
    "second é",
    big,
    "binary 4,1,2",
    "after the binary",
    "after the binary",
    "last",
  ]);
  assertEquals(transport.bufferedAmount, 0);
});

Deno.test("after 300 KiB of one-frame turns, a burst still goes out framed by forge (the turn bound resets)", async () => {
  await using pair = await connected();
  const { transport, client } = pair;
  const turns = 300; // 300 KiB of lone frames: more than one turn may hold
  const burst = ["burst one", "burst two", "burst three"];
  let count = 0;
  const all = Promise.withResolvers<void>();
  client.onmessage = () => ++count === turns + burst.length && all.resolve();
  const write = Socket.prototype.write;
  const written: Uint8Array[] = [];
  try {
    for (let i = 0; i < turns; i++) {
      transport.send(`${i}`.padEnd(1024, "."));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    Socket.prototype.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
      if (chunk instanceof Uint8Array) written.push(chunk);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    };
    for (const text of burst) transport.send(text);
    Socket.prototype.write = write;
    await all.promise;
    // Each frame of the burst went out as the bytes forge framed, not through `ws` alone.
    for (const text of burst) {
      const frame = [...textFrame(text)];
      assertEquals(written.some((w) => [...w].join() === frame.join()), true, text);
    }
  } finally {
    Socket.prototype.write = write;
  }
});

Deno.test("a frame sent with `more` is held for the next, and the two leave in one write", async () => {
  await using pair = await connected();
  const { transport, client } = pair;
  const got: string[] = [];
  const all = Promise.withResolvers<void>();
  client.onmessage = (e) => got.push(e.data) === 3 && all.resolve();
  type Method = (this: Socket, ...a: unknown[]) => unknown;
  const proto = Socket.prototype as unknown as Record<"_write" | "_writev", Method>;
  const [write, writev] = [proto._write, proto._writev];
  const writes: string[] = [];
  try {
    proto._write = function (...a) {
      writes.push("write");
      return write.apply(this, a);
    };
    proto._writev = function (...a) {
      writes.push(`writev of ${(a[0] as unknown[]).length}`);
      return writev.apply(this, a);
    };
    const run = "a run of tokens";
    transport.send(run, true);
    assertEquals(transport.bufferedAmount, textFrame(run).length, "held, not written");
    assertEquals(writes, []);
    transport.send("the frame that ended it");
    assertEquals(writes, ["writev of 2"]);
    assertEquals(transport.bufferedAmount, 0);
    // Nothing follows a held frame: it leaves when the turn ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    transport.send("held alone", true);
    assertEquals(transport.bufferedAmount > 0, true);
    await Promise.resolve();
    assertEquals(transport.bufferedAmount, 0, "written at the turn's end");
  } finally {
    [proto._write, proto._writev] = [write, writev];
  }
  await all.promise;
  assertEquals(got, ["a run of tokens", "the frame that ended it", "held alone"]);
});

Deno.test("a large text frame sent to many connections is framed once, the same bytes to each", async () => {
  const accepted: Transport[] = [];
  const three = Promise.withResolvers<void>();
  const server = await served((t) => accepted.push(t) === 3 && three.resolve());
  const clients = Array.from({ length: 3 }, () => {
    const c = new WebSocket(`ws://127.0.0.1:${server.addr.port}/socket`);
    const got = Promise.withResolvers<string>();
    c.onmessage = (e) => got.resolve(e.data);
    return { c, got: got.promise };
  });
  await three.promise;
  const write = Socket.prototype.write;
  const written: unknown[] = [];
  try {
    Socket.prototype.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
      written.push(chunk);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    };
    const update = JSON.stringify({ kind: "update", pad: "é".repeat(600_000) });
    for (const t of accepted) t.send(update);
    Socket.prototype.write = write;
    assertEquals(written.length, 3);
    assertEquals(written[1] === written[0] && written[2] === written[0], true);
    for (const { got } of clients) assertEquals(await got, update);
  } finally {
    Socket.prototype.write = write;
    for (const { c } of clients) c.close();
    await server.stop();
  }
});

// The direct write of forge-framed text (ws_frame.ts) is only in order because `ws` never holds
// a frame of its own back, which compression would: a client asking for it is answered without.
Deno.test("a client offering permessage-deflate is upgraded without it", async () => {
  const server = await served((transport) => transport.close(1000, "done"));
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await tcp.write(
      new TextEncoder().encode(
        "GET /socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n" +
          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
          "Sec-WebSocket-Version: 13\r\n" +
          "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n",
      ),
    );
    let head = "";
    const buf = new Uint8Array(4096);
    while (!head.includes("\r\n\r\n")) {
      const n = await tcp.read(buf);
      if (n === null) break;
      head += new TextDecoder().decode(buf.subarray(0, n));
    }
    const headers = head.split("\r\n\r\n")[0].toLowerCase();
    assertEquals(headers.startsWith("http/1.1 101"), true, headers);
    assertEquals(headers.includes("sec-websocket-extensions"), false, headers);
  } finally {
    tcp.close();
    await server.stop();
  }
});

// The port is bound before forge has booted (server/boot/socket.ts, the listen phase): a client
// that dials then waits, upgraded and accepted once the server opens, and hears what it is sent.
Deno.test("a client that dials before the listener opens is accepted once it does", async () => {
  // The Origin policy is read as the upgrade arrives, before it waits: the sign it is waiting.
  const dialed = Promise.withResolvers<void>();
  const server = await serveSocket({ hostname: "127.0.0.1", port: 0 }, {
    log: memoryLogger(),
    policy: () => {
      dialed.resolve();
      return { bind: "127.0.0.1", port: 0, allowed: [] };
    },
  });
  const client = new WebSocket(`ws://127.0.0.1:${server.addr.port}/socket`);
  const heard = Promise.withResolvers<string>();
  client.onmessage = (e) => heard.resolve(String(e.data));
  let open = false;
  client.onopen = () => open = true;
  try {
    await dialed.promise;
    assertEquals(open, false);
    server.open((transport) => transport.send("welcome"));
    assertEquals(await heard.promise, "welcome");
  } finally {
    client.close();
    await server.stop();
  }
});

// spec: Reaching it, "One frame write is bounded": the bound reads each frame's progress off
// `bufferedAmount`, and the socket's stream counts a write as buffered until all of it is written.
Deno.test("frames sent while a large write is in flight are handed on one large frame at a time", async () => {
  await using pair = await connected();
  const { transport, client } = pair;
  const frames = 24;
  const big = (i: number) => String(i % 10).repeat(1_000_000);
  let got = 0;
  let inOrder = true;
  const all = Promise.withResolvers<void>();
  client.onmessage = (e) => {
    inOrder &&= e.data === (got % 2 === 0 ? big(got / 2) : `small ${(got - 1) / 2}`);
    if (++got === 2 * frames) all.resolve();
  };
  type Method = (this: Socket, ...a: unknown[]) => unknown;
  const proto = Socket.prototype as unknown as Record<"_write" | "_writev", Method>;
  const [write, writev] = [proto._write, proto._writev];
  const writes: number[] = [];
  const bytes = (chunk: unknown) => (chunk as Uint8Array).byteLength;
  let wire = 0;
  try {
    proto._write = function (...a) {
      writes.push(bytes(a[0]));
      return write.apply(this, a);
    };
    proto._writev = function (...a) {
      const chunks = a[0] as { chunk: unknown }[];
      writes.push(chunks.reduce((sum, c) => sum + bytes(c.chunk), 0));
      return writev.apply(this, a);
    };
    // More than the kernel's buffers take at once: the rest wait on a write in flight.
    for (let i = 0; i < frames; i++) {
      transport.send(big(i));
      transport.send(`small ${i}`);
      wire += textFrame(big(i)).length + textFrame(`small ${i}`).length;
    }
    await all.promise;
  } finally {
    [proto._write, proto._writev] = [write, writev];
  }
  assertEquals(inOrder, true);
  // At most one large frame in any one write (with the small frames queued beside it).
  assertEquals(writes.filter((n) => n > 1_300_000), []);
  // Every byte counted, headers included, and all of it gone.
  assertEquals([transport.sentBytes, transport.bufferedAmount], [wire, 0]);
});
