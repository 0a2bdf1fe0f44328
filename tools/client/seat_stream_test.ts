import { assertEquals } from "../../tests/assert.ts";
import { type SessionUpdate, update } from "../../protocol/mod.ts";
import { type Numbered, SeatStream } from "./seat_stream.ts";

// spec: What a client receives > update ("a client that reads 5 and then 7 knows exactly one
// frame went missing and asks for it"); seat_range; seat_frames.
const key = { org: "o", project: "p", label: "lead" };
const u = (id: string): SessionUpdate =>
  update("prompt_cancel_resolved", { key, uuid: id, cancelled: true });
const live = (seq: number | null, id: string, span = 1): Numbered => ({
  update: u(id),
  seq,
  span,
  repaired: false,
});
const ids = (ns: Numbered[]) =>
  ns.map((n) => `${(n.update.fields as { uuid: string }).uuid}${n.repaired ? "*" : ""}`);

Deno.test("a contiguous stream passes through; a frame already held is dropped", () => {
  const s = new SeatStream();
  s.seed(5, "epoch-1");
  assertEquals(ids(s.accept(live(5, "a")).deliver), ["a"]);
  // A folded run of three token appends stands for 6, 7 and 8.
  assertEquals(ids(s.accept(live(6, "b", 3)).deliver), ["b"]);
  assertEquals(s.next, 9);
  // Emitted during the snapshot's read, or heard twice: below `next`, so already held.
  assertEquals(s.accept(live(8, "old")), { deliver: [], gap: null });
  // Off the stream (read_call_output's answer: seq null) and span 0 (a delivery) never move it.
  assertEquals(ids(s.accept(live(null, "out")).deliver), ["out"]);
  assertEquals(ids(s.accept(live(9, "forged", 0)).deliver), ["forged"]);
  assertEquals(s.next, 9);
});

Deno.test("a gap asks for its range and holds what follows until the answer lands", () => {
  const s = new SeatStream();
  s.seed(5, "epoch-1");
  s.accept(live(5, "a"));
  assertEquals(s.accept(live(8, "d")), { deliver: [], gap: { from: 6, to: 7 } });
  // Frames arriving while the range is out wait behind it.
  assertEquals(s.accept(live(9, "e")), { deliver: [], gap: null });
  const step = s.repaired([{ seq: 6, update: u("b") }, { seq: 7, update: u("c") }]);
  assertEquals([ids(step.deliver), step.gap], [["b*", "c*", "d", "e"], null]);
  assertEquals(s.next, 10);
});

Deno.test("a range answered from the transcript resumes past the range's end", () => {
  const s = new SeatStream();
  s.seed(10, "epoch-1");
  s.accept(live(14, "late"));
  // The window no longer held 10..13: the transcript's newest row crosses numbered to END at 13.
  const step = s.repaired([{ seq: 13, update: u("row") }]);
  assertEquals(ids(step.deliver), ["row*", "late"]);
  assertEquals(s.next, 15);
});

Deno.test("a second gap behind the first is asked for once the first is filled", () => {
  const s = new SeatStream();
  s.seed(1, "e");
  s.accept(live(3, "c"));
  s.accept(live(5, "e"));
  const step = s.repaired([{ seq: 1, update: u("a") }, { seq: 2, update: u("b") }]);
  assertEquals([ids(step.deliver), step.gap], [["a*", "b*", "c"], { from: 4, to: 4 }]);
  assertEquals(ids(s.repaired([{ seq: 4, update: u("d") }]).deliver), ["d*", "e"]);
});

Deno.test("a refused range drops what waited: the seat's reread covers it", () => {
  const s = new SeatStream();
  s.seed(1, "e");
  s.accept(live(3, "c"));
  s.abandon();
  assertEquals(s.repairing, null);
  s.seed(4, "e2");
  assertEquals(ids(s.accept(live(4, "d")).deliver), ["d"]);
});
