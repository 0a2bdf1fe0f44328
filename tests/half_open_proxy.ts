/**
 * A TCP proxy in front of `port` that can go half-open: `freeze()` makes every connection it
 * carries swallow bytes both ways without closing either side, as a network that went away
 * does. Connections made after the freeze pass bytes again.
 */
export function halfOpenProxy(port: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  let pairs: { frozen: boolean }[] = [];
  const pipe = async (from: Deno.Conn, to: Deno.Conn, pair: { frozen: boolean }) => {
    const buf = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await from.read(buf).catch(() => null);
      if (n === null) return;
      if (!pair.frozen) await to.write(buf.subarray(0, n)).catch(() => {});
    }
  };
  (async () => {
    for await (const conn of listener) {
      const up = await Deno.connect({ hostname: "127.0.0.1", port });
      const pair = { frozen: false };
      conns.push(conn, up);
      pairs.push(pair);
      void pipe(conn, up, pair);
      void pipe(up, conn, pair);
    }
  })().catch(() => {});
  return {
    url: `ws://127.0.0.1:${listener.addr.port}/socket`,
    freeze() {
      for (const pair of pairs) pair.frozen = true;
      pairs = [];
    },
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
  };
}
