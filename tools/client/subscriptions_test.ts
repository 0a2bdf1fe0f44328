// The subscriptions a connection holds, read from what it sends and what forge answers, and asked
// for again on a new socket. spec: subscribe; unsubscribe (counted, one entry each); Subjects (a
// seat that is not there is refused); The socket > Reaching it (the reconnect is the client's).
import { assertEquals } from "../../tests/assert.ts";
import type { Slot } from "../../protocol/mod.ts";
import { type Restoration, type Subscription, Subscriptions } from "./subscriptions.ts";

const alpha: Slot = { org: "Acme", project: "alpha", label: "lead" };
const beta: Slot = { org: "Acme", project: "beta", label: "lead" };
const sub = (what: Subscription["what"], answering?: boolean): Subscription =>
  answering === undefined ? { kind: "subscribe", what } : { kind: "subscribe", what, answering };
const snapshot = (subject: unknown) => ({ kind: "snapshot", subject, data: {} });
const refusal = (why: string, seat: Slot | null) => ({
  kind: "error",
  what: "subscribe",
  why,
  seat,
  dispatch_id: null,
});

Deno.test("held: every subscribe in order, each unsubscribe lets one of its subject go", () => {
  const s = new Subscriptions();
  for (const m of [sub("home"), sub({ session: alpha }, true), sub("board"), sub("home")]) {
    s.sent(m);
  }
  s.sent({ kind: "ping" });
  s.sent({ kind: "subscribe", what: "nowhere" }); // off the schema: forge holds nothing of it
  s.sent({ kind: "unsubscribe", what: "home" });
  assertEquals(s.held, [sub("home"), sub({ session: alpha }, true), sub("board")]);
  s.sent({ kind: "unsubscribe", what: "usage" }); // nothing held of it
  s.sent({ kind: "unsubscribe", what: { session: alpha } });
  assertEquals(s.held, [sub("home"), sub("board")]);
});

Deno.test("held: a subscribe forge refused is not held; another seat's refusal leaves it", () => {
  const s = new Subscriptions();
  s.sent(sub({ session: alpha }));
  s.sent(sub("board"));
  s.sent(sub({ session: beta }));
  s.heard(snapshot({ session: alpha }));
  s.heard(refusal("Acme/beta/lead is not a seat", beta));
  s.heard(refusal("board: the board subsystem is turned off", null));
  s.heard(refusal("home: not about anything held", null));
  assertEquals(s.held, [sub({ session: alpha })]);
});

Deno.test("restore: every held subscription re-sent in order; said once each is answered", () => {
  const s = new Subscriptions();
  const order = [sub("home"), sub({ session: alpha }, true), sub("usage"), sub({ session: beta })];
  order.forEach((m) => s.sent(m));
  const resent: Subscription[] = [];
  const said: Restoration[] = [];
  s.restore((m) => resent.push(m), (r) => said.push(r));
  assertEquals(resent, order);
  s.heard(snapshot("home"));
  s.heard(snapshot({ session: alpha }));
  s.heard({ kind: "update", update: "catalog_loaded", seq: null, span: 0 });
  s.heard(refusal("Acme/beta/lead is not a seat: no project declares it", beta));
  assertEquals(said, []);
  s.heard(snapshot("usage"));
  assertEquals(said, [{
    restored: [sub("home"), sub({ session: alpha }, true), sub("usage")],
    refused: [{
      subscription: sub({ session: beta }),
      why: "Acme/beta/lead is not a seat: no project declares it",
    }],
  }]);
  // The refused one is no longer held: the next reconnect does not ask for it.
  assertEquals(s.held, [sub("home"), sub({ session: alpha }, true), sub("usage")]);
});

Deno.test("restore: nothing held is said at once; a drop mid-restore says nothing", () => {
  const s = new Subscriptions();
  const said: Restoration[] = [];
  s.restore(() => {}, (r) => said.push(r));
  assertEquals(said, [{ restored: [], refused: [] }]);
  s.sent(sub("home"));
  s.sent(sub("board"));
  s.restore(() => {}, (r) => said.push(r));
  s.heard(snapshot("home"));
  s.dropped();
  s.heard(snapshot("board"));
  assertEquals(said.length, 1);
  // The next socket asks for both again.
  const resent: Subscription[] = [];
  s.restore((m) => resent.push(m), (r) => said.push(r));
  assertEquals(resent, [sub("home"), sub("board")]);
});
