// spec: session > conversation (newest whole turns, the fold by turn with folded_from and
// folded_frames, the byte ceiling); more > key (a live turn is named by its result); "where a
// turn BEGINS is a fact about the session" and a backgrounded task's ending "opens no turn".
import { assert, assertEquals } from "../../../tests/assert.ts";
import type { CliFrame, SessionUpdate } from "../../../protocol/mod.ts";
import { FrameWindow, type WindowPage, type WireTurn } from "./window.ts";

const key = { org: "Acme", project: "proj", label: "lead" };
const chat = (msg: CliFrame): SessionUpdate => ({ name: "chat_appended", fields: { key, msg } });
const user = (uuid: string): CliFrame => ({
  type: "user",
  message: { role: "user", content: uuid },
  uuid,
});
const forged = (uuid: string): CliFrame => ({ ...user(uuid), source: "you" });
const assistant = (uuid: string): CliFrame => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "text", text: uuid }] },
  uuid,
});
const counter = (d: number, uuid: string): CliFrame => ({
  type: "system",
  subtype: "thinking_tokens",
  estimated_tokens: d,
  estimated_tokens_delta: d,
  uuid,
});
const result = (uuid: string): CliFrame => ({ type: "result", subtype: "success", uuid });
const completed: CliFrame = { type: "command_lifecycle", state: "completed" };
const started = (uuid: string): CliFrame => ({
  type: "command_lifecycle",
  state: "started",
  command_uuid: uuid,
});

function fill(window: FrameWindow, frames: (CliFrame | SessionUpdate)[], from = 0): number {
  let seq = from;
  for (const f of frames) {
    window.push(seq++, "name" in f && "fields" in f ? f as SessionUpdate : chat(f as CliFrame));
  }
  return seq;
}

function turnsOf(p: WindowPage): WireTurn[] {
  if (p.kind !== "page") throw new Error(`expected a page, got ${p.kind}`);
  return p.turns;
}

const uuids = (t: WireTurn) => t.messages.map((m) => (m as CliFrame).uuid ?? null);

Deno.test("turns end at a result (its lifecycle stays with it); a page folds token runs by turn", () => {
  const w = new FrameWindow();
  fill(w, [
    user("p1"),
    counter(1, "c1"),
    counter(2, "c2"),
    counter(3, "c3"),
    { name: "prompt_lifecycle", fields: { key, uuid: "p1", state: "started" } },
    { type: "assistant", uuid: "a1" },
    result("r1"),
    completed,
    user("p2"),
    counter(4, "c4"),
  ]);
  const turns = turnsOf(w.page(null));
  assertEquals(turns.map((t) => t.key), ["r1", null]);
  assertEquals(turns[0].messages, [
    user("p1"),
    {
      ...counter(3, "c3"),
      estimated_tokens_delta: 6,
      estimated_tokens: 3,
      folded_from: 1,
      folded_frames: 3,
    },
    { type: "assistant", uuid: "a1" },
    result("r1"),
    completed,
  ]);
  assertEquals(turns[1].messages, [user("p2"), counter(4, "c4")], "a run of one is itself");
  const page = w.page(null) as { front: boolean; oldest: number };
  assertEquals([page.front, page.oldest], [true, 0]);
});

Deno.test("the page keeps the newest turns within its count and bytes; a cursor's turn pages above it", () => {
  const w = new FrameWindow();
  let seq = 0;
  for (let t = 0; t < 5; t++) seq = fill(w, [user(`p${t}`), result(`r${t}`)], seq);
  const two = w.page(null, 2) as { turns: WireTurn[]; oldest: number; front: boolean };
  assertEquals(two.turns.map((t) => t.key), ["r3", "r4"]);
  assertEquals([two.oldest, two.front], [6, false]);
  const tight = turnsOf(w.page(null, 20, 1));
  assertEquals(tight.map((t) => t.key), ["r4"], "the newest turn always, however big");
  // Walking up from the cursor covers every turn once, then the window says "below".
  const above = w.page(6, 2) as { turns: WireTurn[]; oldest: number; front: boolean };
  assertEquals(above.turns.map((t) => t.key), ["r1", "r2"]);
  const top = w.page(above.oldest, 2) as { turns: WireTurn[]; oldest: number; front: boolean };
  assertEquals([top.turns.map((t) => t.key), top.front], [["r0"], true]);
  assertEquals(w.page(top.oldest, 2), { kind: "below" });
  assertEquals(w.page(7, 20).kind, "page", "a cursor inside a turn pages above that turn");
  assertEquals(w.page(99, 2), { kind: "gone" }, "an index the window never held");
  assertEquals(w.anchor(6), "p3", "the anchor is the turn's first frame the transcript carries");
});

Deno.test("a task's ending and the CLI's own turn for it stay in the ended turn; prompts open turns where the CLI takes them", () => {
  const w = new FrameWindow();
  fill(w, [
    forged("p1"),
    assistant("a1"),
    result("r1"),
    // A backgrounded call's ending: the CLI reports it and runs a turn of its own.
    { type: "system", subtype: "task_notification", uuid: "n1" },
    { type: "system", subtype: "init", uuid: "i2" },
    assistant("a2"),
    result("r2"),
    // A prompt sent while a turn runs joins it (the CLI takes it as a queued command) ...
    forged("p3"),
    assistant("a3"),
    forged("p4"),
    started("p4"),
    assistant("a4"),
    result("r3"),
    // ... unless the CLI runs it as its own turn after the result: that turn opens where it
    // starts.
    forged("p5"),
    assistant("a5"),
    forged("p6"),
    result("r5"),
    completed,
    started("p6"),
    assistant("a6"),
    result("r6"),
  ]);
  const turns = turnsOf(w.page(null));
  assertEquals(turns.map((t) => t.key), ["r1", "r3", "r5", "r6"]);
  assertEquals(uuids(turns[0]), ["p1", "a1", "r1", "n1", "i2", "a2", "r2"]);
  assertEquals(uuids(turns[1]), ["p3", "a3", "p4", null, "a4", "r3"]);
  assertEquals(uuids(turns[2]), ["p5", "a5", "p6", "r5", null]);
  assertEquals(uuids(turns[3]), [null, "a6", "r6"]);
  const newest = w.page(null, 1) as { oldest: number };
  assertEquals([newest.oldest, w.anchor(newest.oldest)], [18, "a6"]);
});

Deno.test("a seeded window: transcript turns unnumbered with null keys, then live turns; the front and the numbers", () => {
  const w = new FrameWindow();
  w.seed([
    { frames: [{ frame: user("t1"), offset: 100 }, { frame: assistant("t1a"), offset: 200 }] },
    { frames: [{ frame: user("t2"), offset: 300 }, { frame: assistant("t2a"), offset: 400 }] },
  ], chat);
  assertEquals(w.firstSeq(), null);
  assertEquals(w.front(), { offset: 100, anchors: [] });
  fill(w, [
    { name: "spawning", fields: { key } },
    forged("p1"),
    assistant("a1"),
    result("r1"),
  ], 40);
  const turns = turnsOf(w.page(null));
  assertEquals(turns.map((t) => t.key), [null, null, "r1"]);
  assertEquals(uuids(turns[2]), ["p1", "a1", "r1"]);
  assertEquals(w.firstSeq(), 40);
  assertEquals(w.bySeq(41, 42).map((e) => e.seq), [41, 42]);
  assertEquals(w.bySeq(0, 39), []);
  assertEquals(w.front(), { offset: 100, anchors: [] }, "the seeded row at the front");
  assertEquals(w.liveDropped, false);
  assert(w.page(4, 1).kind === "page", "the seeded turns page from memory");
  assertEquals(w.page(0, 1), { kind: "below" });
});

Deno.test("past the byte ceiling the oldest entries drop; a turn cut at the front keeps its leading run", () => {
  const w = new FrameWindow(600);
  fill(w, [
    user("p0"),
    result("r0"),
    user("p1"),
    counter(1, "a"),
    counter(1, "b"),
    counter(1, "c"),
    counter(1, "d"),
  ]);
  assertEquals(w.trimmed, true);
  assertEquals(w.liveDropped, true);
  assertEquals(w.bytes <= 600, true);
  const page = w.page(null) as { turns: WireTurn[]; front: boolean };
  const last = page.turns.at(-1)!.messages as CliFrame[];
  assertEquals(last.every((m) => m.folded_frames === undefined), true, "served as itself");
  assertEquals(page.front, true);
  assert((w.firstSeq() ?? 0) > 0, "the oldest numbers are gone");
  assertEquals(w.page(0, 1), { kind: "gone" });
});

Deno.test("a turn cut at the front is shown from where no tool result lacks its call", () => {
  const call = (uuid: string, id: string): CliFrame => ({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] },
    uuid,
  });
  const toolResult = (uuid: string, id: string): CliFrame => ({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "x" }] },
    uuid,
  });
  const pad = "x".repeat(300);
  const w = new FrameWindow(1400);
  fill(w, [
    forged("p1"),
    { ...call("c1", "t1"), pad },
    { ...toolResult("u1", "t1"), pad },
    { ...call("c2", "t2"), pad },
    toolResult("u2", "t2"),
    assistant("a2"),
  ]);
  // The ceiling dropped the prompt and the first call: the page starts at the second call.
  assert(w.trimmed);
  const page = w.page(null) as { turns: WireTurn[]; oldest: number; front: boolean };
  assertEquals(uuids(page.turns[0]), ["c2", "u2", "a2"]);
  assertEquals(page.front, true);
  assertEquals(w.front(), { offset: null, anchors: ["c2", "u2", "a2"] });
  assertEquals(w.front(false).anchors[0], "u1", "the held front, for the numbers");
  assertEquals(w.page(page.oldest, 5), { kind: "below" });
});

Deno.test("rows placed before a held frame join the turn before it; the numbers and the name move on", () => {
  const w = new FrameWindow();
  w.seed([{ frames: [{ frame: user("t1"), offset: 100 }] }], chat); // a turn left unanswered
  fill(
    w,
    [{ name: "connected", fields: { key } }, forged("p1"), assistant("a1"), result("r1")],
    40,
  );
  const id = w.id;
  assertEquals(w.insertBefore("nobody", [{ frame: assistant("late"), offset: 150 }], chat), false);
  assert(w.insertBefore("p1", [{ frame: assistant("late"), offset: 150 }], chat));
  const turns = turnsOf(w.page(null));
  assertEquals(turns.map(uuids), [["t1", "late"], ["p1", "a1", "r1"]]);
  assert(w.id !== id, "a cursor of the window before is stale");
  // The numbered entries are found by number past the unnumbered one between them.
  assertEquals(w.bySeq(40, 43).map((e) => e.seq), [40, 41, 42, 43]);
  assertEquals(w.bySeq(41, 41).map((e) => e.msg?.uuid), ["p1"]);
  assertEquals(w.firstSeq(), 40);
});
