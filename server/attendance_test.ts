// spec: showing; subscribe > answering: a seat is attended while an answering connection shows
// it; a read-only viewer is nobody who could answer.
import type { Slot } from "../protocol/mod.ts";
import { assertEquals } from "../tests/assert.ts";
import { SeatAttendance } from "./attendance.ts";

const alpha: Slot = { org: "Acme", project: "alpha", label: "lead" };
const beta: Slot = { org: "Acme", project: "beta", label: "lead" };

Deno.test("a seat is attended only while an answering connection shows it; a throwing listener is logged, the rest still hear", () => {
  const viewers: { answering: boolean; showing: Slot | null }[] = [
    { answering: false, showing: alpha },
    { answering: true, showing: beta },
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
