// spec: session > conversation (newest whole turns, the fold by turn with folded_from and
// folded_frames, the cursor, the byte ceiling); more > key (a live turn is named by its result).
import { assertEquals } from "../../../tests/assert.ts";
import type { CliFrame, SessionUpdate } from "../../../protocol/mod.ts";
import { FrameWindow } from "./window.ts";

const key = { org: "Acme", project: "proj", label: "lead" };
const chat = (msg: CliFrame): SessionUpdate => ({ name: "chat_appended", fields: { key, msg } });
const user = (uuid: string): CliFrame => ({
  type: "user",
  message: { role: "user", content: uuid },
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

function fill(window: FrameWindow, frames: (CliFrame | SessionUpdate)[], from = 0): number {
  let seq = from;
  for (const f of frames) {
    window.push(seq++, "name" in f && "fields" in f ? f as SessionUpdate : chat(f as CliFrame));
  }
  return seq;
}

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
  const page = w.newestTurns() as {
    turns: { key: string | null; messages: CliFrame[] }[];
    cursor: unknown;
  };
  assertEquals(page.turns.map((t) => t.key), ["r1", null]);
  assertEquals(page.turns[0].messages, [
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
  assertEquals(page.turns[1].messages, [user("p2"), counter(4, "c4")], "a run of one is itself");
  assertEquals(page.cursor, null, "nothing above a fresh session's first turn");
});

Deno.test("the page keeps the newest turns within its count and bytes; the cursor names the oldest kept", () => {
  const w = new FrameWindow();
  let seq = 0;
  for (let t = 0; t < 5; t++) seq = fill(w, [user(`p${t}`), result(`r${t}`)], seq);
  const two = w.newestTurns(2) as { turns: { key: string }[]; cursor: string | null };
  assertEquals(two.turns.map((t) => t.key), ["r3", "r4"]);
  assertEquals(two.cursor, "6");
  const tight = w.newestTurns(20, 1) as { turns: { key: string }[] };
  assertEquals(tight.turns.map((t) => t.key), ["r4"], "the newest turn always, however big");
  const resumed = new FrameWindow(true);
  fill(resumed, [user("p"), result("r")]);
  assertEquals(
    (resumed.newestTurns() as { cursor: unknown }).cursor,
    "0",
    "history sits above a resumed session",
  );
});

Deno.test("past the byte ceiling the oldest entries drop; a turn cut at the front keeps its leading run", () => {
  const w = new FrameWindow(false, 600);
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
  assertEquals(w.bytes <= 600, true);
  const page = w.newestTurns() as { turns: { messages: CliFrame[] }[]; cursor: unknown };
  const last = page.turns.at(-1)!.messages;
  assertEquals(last.every((m) => m.folded_frames === undefined), true, "served as itself");
  assertEquals(typeof page.cursor, "string");
  assertEquals(w.entries()[0].seq > 0, true);
});
