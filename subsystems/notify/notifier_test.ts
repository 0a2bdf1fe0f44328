// docs/notify.md "When": a push per seat at most once per coalesce window, never while an
// answering viewer shows the seat, an ask answered before its push leaves never pushed.
import type { NotifyKind, Slot } from "../../protocol/mod.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { GATHER_MS, Notifier } from "./notifier.ts";
import { composePush, type Push } from "./push.ts";

const seat = (label: string): Slot => ({ org: "Acme", project: "alpha", label });
const same = (a: Slot, b: Slot) => a.label === b.label;

function world(kinds: NotifyKind[] = ["ask", "failed", "finished", "auth"]) {
  const clock = new ManualClock();
  const pushes: { push: Push; wanted: () => boolean }[] = [];
  const shown: Slot[] = [];
  const notifier = new Notifier({
    clock,
    settings: () => ({ kinds, coalesceMs: 30_000 }),
    attended: (slot) => shown.some((s) => same(s, slot)),
    compose: (slot, needs) => composePush(slot, needs, { title: slot.label, clientUrl: null }),
    deliver: (push, wanted) => pushes.push({ push, wanted }),
  });
  const ask = (slot: Slot, id: string, line = `Bash: ${id}`) =>
    notifier.apply({ type: "need", slot, need: { kind: "ask", id, line } });
  const gone = (slot: Slot, id: string) => notifier.apply({ type: "gone", slot, id });
  return { clock, pushes, shown, notifier, ask, gone };
}

Deno.test("a burst of 20 asks over 5 seats is 5 pushes, each counting its seat's 4", async () => {
  const w = world();
  const seats = ["s1", "s2", "s3", "s4", "s5"].map(seat);
  for (let i = 0; i < 20; i++) {
    w.ask(seats[i % 5], `ask-${i}`);
    await w.clock.advanceSettling(15); // the asks arrive over 300 ms, interleaved across the seats
  }
  await w.clock.advanceSettling(60 * 60_000); // an hour on: nothing more leaves for the same asks
  assertEquals(w.pushes.length, 5);
  assertEquals(
    w.pushes.map((p) => [p.push.seat!.label, p.push.count, p.push.title]).sort(),
    seats.map((s) => [s.label, 4, `${s.label} needs you`]),
  );
});

Deno.test("a second ask inside the window waits for it and carries the count; none leaves early", async () => {
  const w = world();
  const s = seat("lead");
  w.ask(s, "a");
  await w.clock.advanceSettling(GATHER_MS);
  assertEquals(w.pushes.length, 1);
  await w.clock.advanceSettling(4_000);
  w.ask(s, "b", "Bash: rm -rf build");
  // The window runs from when the first push left.
  await w.clock.advanceSettling(30_000 - 4_000 - 1);
  assertEquals(w.pushes.length, 1, "not before the window ends");
  await w.clock.advanceSettling(1);
  assertEquals(w.pushes.length, 2);
  assertEquals([w.pushes[1].push.body, w.pushes[1].push.count], [
    "Bash: rm -rf build (2 waiting)",
    2,
  ]);
});

Deno.test("an ask answered before its push leaves is never pushed", async () => {
  const w = world();
  const s = seat("lead");
  w.ask(s, "a");
  await w.clock.advanceSettling(GATHER_MS - 1);
  w.gone(s, "a");
  await w.clock.advanceSettling(60 * 60_000);
  assertEquals(w.pushes.length, 0);
  assertEquals(w.clock.pending, 0);
});

Deno.test("nothing is pushed while an answering viewer shows the seat; the waiting asks are when it leaves", async () => {
  const w = world();
  const s = seat("lead");
  w.shown.push(s);
  w.ask(s, "a");
  w.ask(s, "b");
  w.gone(s, "a");
  w.notifier.apply({ type: "need", slot: s, need: { kind: "failed", id: "f", line: "boom" } });
  await w.clock.advanceSettling(60 * 60_000);
  assertEquals(w.pushes.length, 0, "nothing while shown");
  w.shown.length = 0;
  w.notifier.attendanceChanged();
  await w.clock.advanceSettling(GATHER_MS);
  assertEquals(w.pushes.length, 1);
  // The failure happened in front of the viewer; only the ask still waiting is pushed.
  assertEquals([w.pushes[0].push.kind, w.pushes[0].push.count, w.pushes[0].push.body], [
    "ask",
    1,
    "Bash: b",
  ]);
  // Showing it again and leaving does not push the same ask twice.
  w.shown.push(s);
  w.notifier.attendanceChanged();
  w.shown.length = 0;
  w.notifier.attendanceChanged();
  await w.clock.advanceSettling(60 * 60_000);
  assertEquals(w.pushes.length, 1);
});

Deno.test("a viewer arriving before the push leaves stops it", async () => {
  const w = world();
  const s = seat("lead");
  w.ask(s, "a");
  w.shown.push(s);
  w.notifier.attendanceChanged();
  await w.clock.advanceSettling(60 * 60_000);
  assertEquals(w.pushes.length, 0);
});

Deno.test("kinds picks which needs push, and a push of asks alone is unwanted once they are answered", async () => {
  const w = world(["ask"]);
  const s = seat("lead");
  w.notifier.apply({ type: "need", slot: s, need: { kind: "finished", id: "f", line: "done" } });
  await w.clock.advanceSettling(60_000);
  assertEquals(w.pushes.length, 0, "finished is not in kinds");
  w.ask(s, "a");
  await w.clock.advanceSettling(GATHER_MS);
  assert(w.pushes[0].wanted(), "the ask still waits");
  w.gone(s, "a");
  assert(!w.pushes[0].wanted(), "answered: a retry would be withdrawn");
});

Deno.test("events push once, most urgent first in the title, counted with the asks", async () => {
  const w = world();
  const s = seat("lead");
  w.notifier.apply({
    type: "need",
    slot: s,
    need: { kind: "finished", id: "f", line: "the turn finished after 3 min 0 s" },
  });
  w.notifier.apply({
    type: "need",
    slot: s,
    need: { kind: "failed", id: "e", line: "overloaded" },
  });
  await w.clock.advanceSettling(GATHER_MS);
  assertEquals([w.pushes[0].push.title, w.pushes[0].push.body, w.pushes[0].push.priority], [
    "lead failed",
    "overloaded (2 waiting)",
    "default",
  ]);
  assert(w.pushes[0].wanted(), "an event's push stays wanted through its retries");
  await w.clock.advanceSettling(60 * 60_000);
  assertEquals(w.pushes.length, 1, "events are not pushed again");
});
