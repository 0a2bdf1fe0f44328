/// <reference lib="deno.worker" />
/**
 * fold_cost's latency clients, one Worker per core: N clients subscribed to a seat (or to a bare
 * relay), each stamping every chat frame it parses on the absolute clock the server side stamps
 * with.
 */
const now = () => performance.timeOrigin + performance.now();

/** The worker: N clients subscribed to the seat, stamping every chat frame they parse. */
function clientWorker() {
  const scope = globalThis as unknown as {
    onmessage: (e: MessageEvent) => void;
    postMessage: (m: unknown) => void;
  };
  const sockets: WebSocket[] = [];
  const samples: [string, number, number][] = [];
  scope.onmessage = async (e: MessageEvent) => {
    if (e.data.kind === "connect") {
      // `seat` null: a bare relay's client, sent the CLI's lines as they are (seat_bare.ts).
      const { url, clients, seat } = e.data;
      await Promise.all(Array.from({ length: clients }, () =>
        new Promise<void>((resolve) => {
          const ws = new WebSocket(url);
          sockets.push(ws);
          if (seat === null) ws.onopen = () => resolve();
          ws.onmessage = (m) => {
            const at = now();
            const data = JSON.parse(m.data as string);
            if (seat === null) {
              if (typeof data.uuid === "string") samples.push([data.uuid, at, 1]);
              return;
            }
            if (data.kind === "settings") {
              ws.send(JSON.stringify({ kind: "subscribe", what: { session: seat } }));
            }
            if (data.kind === "snapshot") resolve();
            const msg = data.update?.chat_appended?.msg;
            if (msg && typeof msg.uuid === "string") {
              samples.push([msg.uuid, at, data.span]);
            }
          };
        })));
      scope.postMessage({ kind: "ready" });
    } else if (e.data.kind === "report") {
      for (const ws of sockets) ws.close();
      scope.postMessage({ kind: "samples", samples });
    }
  };
}

clientWorker();
