import { assertEquals } from "../../../../tests/assert.ts";
import type { Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";

// spec: update {seq, span}; seat_range ("a client that reads 5 and then 7 knows exactly one frame
// went missing"); seat_frames ("the client resumes exactly where it was reading").

const slot = { org: "Acme", project: "alpha", label: "lead" };
const chat = (text: string) =>
  readUpdate({
    chat_appended: {
      key: slot,
      msg: { type: "assistant", message: { content: [{ type: "text", text }] } },
    },
  });
const words = (m: SeatModel) =>
  m.turns.flatMap((t) => t.messages.map((f) => JSON.stringify(f.message)));

Deno.test("seat model: a gap is asked for, later frames wait, and the repair lands in order", () => {
  const m = new SeatModel(slot);
  m.seed(snapshot(5, [{ type: "user", message: { content: "hi" } }]));
  assertEquals(m.accept(chat("a"), 5, 1), { kind: "applied" });
  assertEquals(m.accept(chat("d"), 8, 1), { kind: "gap", from: 6, to: 7 });
  m.accept(chat("e"), 9, 1);
  m.repaired([{ seq: 6, update: chat("b") }, { seq: 7, update: chat("c") }]);
  assertEquals(m.nextSeq, 10);
  assertEquals(words(m).slice(1).map((w) => JSON.parse(w).content[0].text), [
    "a",
    "b",
    "c",
    "d",
    "e",
  ]);
  // A frame the page already holds is not drawn twice.
  assertEquals(m.accept(chat("c"), 7, 1), { kind: "duplicate" });
});

Deno.test("seat model: a reconnect snapshot of the same epoch keeps the turns and names the gap", () => {
  const m = new SeatModel(slot);
  m.seed(snapshot(3, [{ type: "user", message: { content: "hi" } }]));
  m.accept(chat("a"), 3, 1);
  assertEquals(m.rebase(snapshot(6)), { from: 4, to: 5 });
  m.repaired([{ seq: 4, update: chat("b") }, { seq: 5, update: chat("c") }]);
  assertEquals(m.turns.length, 1);
  assertEquals(m.turns[0].messages.length, 4);
  // Another epoch (or a count that went backwards: a new server run) seeds instead.
  assertEquals(
    m.rebase(snapshot(2, [], "s2")),
    null,
  );
  assertEquals(m.turns.length, 0);
  assertEquals(m.reseeds, 1);
});

Deno.test("seat model: asks of a kind the page has never seen are held and resolved by id", () => {
  const m = new SeatModel(slot);
  m.seed(snapshot(0));
  m.accept(readUpdate({ widget_ask_pending: { key: slot, id: "w1", what: "a new kind" } }), 0, 1);
  assertEquals(m.asks.map((a) => [a.kind, a.id, a.request.what]), [[
    "widget_ask",
    "w1",
    "a new kind",
  ]]);
  m.accept(readUpdate({ widget_ask_resolved: { key: slot, id: "w1", ending: "answered" } }), 1, 1);
  assertEquals(m.asks, []);
});

Deno.test("seat model: a prompt sent mid-turn opens its turn where the CLI starts it", () => {
  const m = new SeatModel(slot);
  m.seed(snapshot(0));
  const user = (uuid: string, text: string) => ({
    chat_appended: {
      key: slot,
      msg: { type: "user", message: { content: text }, uuid, source: "you" },
    },
  });
  const frame = (msg: Wire) => ({ chat_appended: { key: slot, msg } });
  const delta = (text: string) =>
    frame({
      type: "stream_event",
      event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    });
  let n = 0;
  const feed = (u: Wire) => m.accept(readUpdate(u), n++, 1);
  feed(user("a", "first"));
  feed(delta("one "));
  feed(user("b", "second"));
  feed(delta("two"));
  feed(frame({ type: "assistant", message: { content: [{ type: "text", text: "one two" }] } }));
  feed(frame({ type: "result", subtype: "success" }));
  feed(frame({ type: "command_lifecycle", command_uuid: "b", state: "started" }));
  feed(frame({ type: "assistant", message: { content: [{ type: "text", text: "hi" }] } }));
  assertEquals(m.turns.map((t) => t.messages.map((f) => f.type)), [
    ["user", "stream_event", "stream_event", "assistant", "result"],
    ["user", "command_lifecycle", "assistant"],
  ]);
});
