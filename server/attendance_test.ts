// spec: showing; subscribe > answering: a seat is attended while an answering connection shows
// it; a read-only viewer is nobody who could answer.
import type { Slot } from "../protocol/mod.ts";
import { assertEquals } from "../tests/assert.ts";
import { SeatAttendance } from "./attendance.ts";
import { Subscriptions } from "./fanout.ts";

const alpha: Slot = { org: "Acme", project: "alpha", label: "lead" };
const beta: Slot = { org: "Acme", project: "beta", label: "lead" };

Deno.test("a seat is attended only while an answering connection shows it; a throwing listener is logged, the rest still hear", () => {
  const viewers = [
    { answering: false, showing: alpha as Slot | null, subs: new Subscriptions() },
    { answering: true, showing: beta as Slot | null, subs: new Subscriptions() },
  ];
  const failures: unknown[] = [];
  const a = new SeatAttendance(() => viewers, (e) => failures.push(e));
  assertEquals([a.attended(alpha), a.attended(beta)], [false, true]);
  let heard = 0;
  a.onChange(() => {
    throw new Error("listener bug");
  });
  const stop = a.onChange(() => heard++);
  viewers[1].showing = null;
  a.changed();
  assertEquals([a.attended(beta), heard, failures.length], [false, 1, 1]);
  stop();
  a.changed();
  assertEquals(heard, 1, "a stopped listener hears nothing");
});

// spec: subscribe; unsubscribe: a seat is held while any connection, answering or not, holds its
// session subject; a connection gone from the table (closed) holds nothing.
Deno.test("a seat is held while any connection subscribes to its session, until the last lets go", () => {
  const one = { answering: false, showing: null, subs: new Subscriptions() };
  const two = { answering: false, showing: null, subs: new Subscriptions() };
  const open = new Set([one, two]);
  const a = new SeatAttendance(() => open, () => {});
  one.subs.add({ session: alpha });
  two.subs.add({ session: alpha });
  two.subs.add("home");
  assertEquals([a.held(alpha), a.held(beta)], [true, false]);
  one.subs.remove({ session: alpha });
  assertEquals(a.held(alpha), true, "the second subscriber still holds it");
  open.delete(two);
  assertEquals(a.held(alpha), false, "a closed connection holds nothing");
});
