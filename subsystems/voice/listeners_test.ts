import { assertEquals } from "../../tests/assert.ts";
import { ListenerSet } from "./listeners.ts";

const A = { org: "o", project: "p", label: "lead" };
const B = { org: "o", project: "q", label: "lead" };

// spec: voice_mode - the switch is per connection; the first in notes once, the last out notes
// it may stop (explicit off or a dropped connection); a move (explicit: false) pauses silently.
Deno.test("listener set: first in notes once, last explicit off notes stop", () => {
  const set = new ListenerSet();
  assertEquals(set.set(A, 1, true, true), { slot: A, listeners: 1, note: "listening" });
  assertEquals(set.set(A, 2, true, true), { slot: A, listeners: 2, note: null });
  assertEquals(set.set(A, 1, false, true), { slot: A, listeners: 1, note: null });
  assertEquals(set.set(A, 2, false, true), { slot: A, listeners: 0, note: "stopped" });
  assertEquals(set.set(A, 2, false, true).note, null, "an off with nobody in notes nothing");
  assertEquals(set.set(A, 1, true, true).note, "listening", "a new first listener is told");
});

Deno.test("listener set: a move pauses without a note and a return resumes without one", () => {
  const set = new ListenerSet();
  set.set(A, 1, true, true);
  assertEquals(set.set(A, 1, false, false), { slot: A, listeners: 0, note: null });
  assertEquals(set.set(B, 1, true, false).note, "listening", "B's first listener");
  assertEquals(set.set(B, 1, false, false).note, null);
  assertEquals(set.set(A, 1, true, false), { slot: A, listeners: 1, note: null });
  assertEquals(set.has(A, 1), true);
});

Deno.test("listener set: a dropped connection leaves every seat, noting stop where it was last", () => {
  const set = new ListenerSet();
  set.set(A, 1, true, true);
  set.set(A, 2, true, true);
  set.set(B, 1, true, true);
  set.set(B, 1, false, false); // moved away from B, intent kept
  assertEquals(set.drop(1), [
    { slot: A, listeners: 1, note: null },
    { slot: B, listeners: 0, note: "stopped" },
  ]);
  assertEquals(set.drop(2), [{ slot: A, listeners: 0, note: "stopped" }]);
  assertEquals(set.drop(3), []);
  assertEquals(set.count(A), 0);
});
