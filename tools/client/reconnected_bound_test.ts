// `reconnected` always comes: a terminal re-attached after a drop whose first view frame never
// comes (its screen model never caught up, or it closed first) loses the control held on it at
// the bound, in words, rather than holding the event until the next drop. forge's side is played
// by the test over a real local socket, the redial and the bound run on a clock the test moves.
// spec: terminal_view ("The answer is a terminal_view frame"); terminal_control.
import { assert, assertEquals } from "../../tests/assert.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import type { Slot } from "../../protocol/mod.ts";
import { ForgeClient } from "./client.ts";
import type { Frame } from "./frames.ts";
import type { LinkEvent } from "./redial.ts";
import { VIEW_MS } from "./roles.ts";

const seat: Slot = { org: "Acme", project: "alpha", label: "lead" };

/**
 * forge's side of the line: on the first socket a terminal_view is answered with its view frame
 * and a take with the new controller; on a later one the attach's reply says ok and no view frame
 * follows.
 */
function scriptedForge() {
  const sockets: WebSocket[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    const first = sockets.length === 0;
    sockets.push(socket);
    const send = (m: Record<string, unknown>) => socket.send(JSON.stringify(m));
    socket.onmessage = (e) => {
      const m = JSON.parse(String(e.data));
      if (m.kind === "terminal_view" && first) {
        send({
          kind: "terminal_view",
          seat,
          id: 1,
          cols: 80,
          rows: 24,
          seq: 0,
          screen: "",
          viewers: 1,
          viewer: 1,
          controller: null,
        });
      } else if (m.kind === "terminal_view") {
        send({ kind: "reply", reply_to: m.reply_to, body: { ok: true, id: 2 } });
      } else if (m.kind === "terminal_control") {
        send({ kind: "terminal_control", seat, id: 1, controller: 1 });
      }
    };
    return response;
  });
  return {
    url: `ws://127.0.0.1:${server.addr.port}/socket`,
    sockets,
    async [Symbol.asyncDispose]() {
      for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.close();
      await server.shutdown();
    },
  };
}

/** Resolves with the first frame `c` hears (its own included) that `pred` matches. */
function heard(c: ForgeClient, pred: (m: Record<string, unknown>) => boolean): Promise<void> {
  const { promise, resolve } = Promise.withResolvers<void>();
  const undo = c.listen({
    frame: (f: Frame) => {
      if (f.type === "json" && pred(f.data)) (undo(), resolve());
    },
    ended: () => {},
  });
  return promise;
}

Deno.test("reconnected: a re-attached terminal with no view frame loses its control at the bound", async () => {
  await using forge = scriptedForge();
  const clock = new ManualClock();
  const c = await ForgeClient.connect(forge.url, { reconnect: { clock, random: () => 0.5 } });
  const events: LinkEvent[] = [];
  const waiting: (() => void)[] = [];
  c.onLink((e) => (events.push(e), waiting.splice(0).forEach((w) => w())));
  const link = async (n: number) => {
    while (events.length < n) await new Promise<void>((r) => waiting.push(r));
    return events[n - 1];
  };

  const controlled = heard(c, (m) => m.kind === "terminal_control");
  c.send({ kind: "terminal_view", seat });
  await c.next((m) => m.kind === "terminal_view");
  c.send({ kind: "terminal_control", seat, id: 1, take: true });
  await controlled;

  forge.sockets[0].close(1012, "forge restarts");
  assertEquals((await link(1)).kind, "reconnecting");
  const replied = heard(c, (m) => m.kind === "reply");
  clock.advanceBy(500);
  await replied;
  assertEquals(events.length, 1, "the view frame is still owed");

  // The bound's timer says it at once: nothing else is waited for.
  clock.advanceBy(VIEW_MS);
  assertEquals(events.length, 2, "reconnected is said at the bound");
  const back = events[1];
  assert(back.kind === "reconnected", JSON.stringify(back));
  assertEquals([back.reattached, back.unattached, back.regained], [
    [{ kind: "terminal_view", seat }],
    [],
    [],
  ]);
  assertEquals(back.lost, [{
    role: { role: "terminal_control", seat },
    why: "no terminal_view frame came for Acme/alpha/lead's terminal within 10 s of its re-attach",
  }]);
  await c.close();
});
