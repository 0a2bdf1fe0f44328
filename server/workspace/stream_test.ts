// The update stream's numbering and its batch. spec: What a client receives > update {seq, span};
// "Two representations of one conversation cross"; the original's flush timers (FLUSH_INTERVAL,
// FLUSH_CEILING).
import { assert, assertEquals } from "../../tests/assert.ts";
import type { CliFrame, SessionUpdate } from "../../protocol/mod.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { memoryLogger } from "../log.ts";
import { type NumberedUpdate, UpdateStream } from "./stream.ts";
import { Workspace } from "./workspace.ts";

const key = { org: "Acme", project: "proj", label: "lead" };
const other = { org: "Acme", project: "proj", label: "w1" };

const chat = (msg: CliFrame, slot = key): SessionUpdate => ({
  name: "chat_appended",
  fields: { key: slot, msg },
});
const counter = (delta: number, total: number, uuid: string): CliFrame => ({
  type: "system",
  subtype: "thinking_tokens",
  estimated_tokens: total,
  estimated_tokens_delta: delta,
  uuid,
});
const delta = (text: string, uuid: string, type = "thinking_delta", index = 0): CliFrame => ({
  type: "stream_event",
  event: {
    type: "content_block_delta",
    index,
    delta: { type, [type === "text_delta" ? "text" : "thinking"]: text },
  },
  parent_tool_use_id: null,
  api_message_id: "msg_1",
  uuid,
});

function collect(stream: UpdateStream): NumberedUpdate[] {
  const out: NumberedUpdate[] = [];
  stream.subscribe((u) => out.push(u));
  return out;
}

function waitFor(cond: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const tick = () => cond() ? resolve() : setTimeout(tick, 2);
    tick();
  });
}

Deno.test("a run of token appends crosses as ONE frame: oldest seq, span the count, deltas summed, last uuid", async () => {
  const stream = new UpdateStream();
  const out = collect(stream);
  const seqs = [
    stream.emit(chat(counter(1, 1, "u1"))).seq,
    stream.emit(chat(delta("let ", "u2"))).seq,
    stream.emit(chat(counter(2, 3, "u3"))).seq,
    stream.emit(chat(delta("me think", "u4"))).seq,
  ];
  assertEquals(seqs, [0, 1, 2, 3], "every append is numbered when it is emitted");
  assertEquals(out.length, 0, "held until the flush");
  await waitFor(() => out.length === 1);
  const [frame] = out;
  assertEquals([frame.seq, frame.span], [0, 4]);
  const msg = (frame.update.fields as { msg: CliFrame }).msg;
  assertEquals(msg.uuid, "u4");
  assertEquals(msg.estimated_tokens_delta, 3);
  assertEquals(msg.estimated_tokens, 3);
  assertEquals(msg.event, {
    type: "content_block_delta",
    index: 0,
    delta: { type: "thinking_delta", thinking: "let me think" },
  });
  assertEquals(stream.nextSeq(key), 4);
});

Deno.test("any other frame of the seat flushes the run first, so the seat's order holds", () => {
  const stream = new UpdateStream();
  const out = collect(stream);
  stream.emit(chat(delta("a", "u1", "text_delta")));
  stream.emit(chat(delta("b", "u2", "text_delta")));
  stream.emit(chat(delta("x", "o1", "text_delta"), other)); // another seat: its own run
  stream.emit({ name: "notice", fields: { key, severity: "info", text: "n" } });
  assertEquals(out.map((u) => [u.update.name, u.seq, u.span]), [
    ["chat_appended", 0, 2],
    ["notice", 2, 1],
  ]);
  const msg = (out[0].update.fields as { msg: CliFrame }).msg;
  assertEquals((msg.event as { delta: unknown }).delta, { type: "text_delta", text: "ab" });
  stream.flush();
  assertEquals(out.map((u) => [u.slot?.label, u.seq, u.span]).at(-1), ["w1", 0, 1]);
});

Deno.test("a run published because the next frame came is marked followed; a timed or flushed run is not", async () => {
  const stream = new UpdateStream({ intervalMs: 5, ceilingMs: 50 });
  const out = collect(stream);
  stream.emit(chat(delta("a", "u1", "text_delta")));
  stream.emit({ name: "notice", fields: { key, severity: "info", text: "n" } });
  stream.emit(chat(delta("b", "u3", "text_delta")));
  stream.emit(chat(delta("c", "u4", "thinking_delta", 1))); // another block: a run of its own
  await waitFor(() => out.length === 4);
  stream.emit(chat(delta("d", "u5", "text_delta", 2)));
  stream.flush();
  assertEquals(out.map((u) => [u.update.name, u.seq, u.followed ?? false]), [
    ["chat_appended", 0, true],
    ["notice", 1, false],
    ["chat_appended", 2, false],
    ["chat_appended", 3, false],
    ["chat_appended", 4, false],
  ]);
});

Deno.test("appends to different blocks do not fold together; a lone append crosses unchanged", () => {
  const stream = new UpdateStream();
  const out = collect(stream);
  const first = chat(delta("a", "u1", "text_delta", 0));
  stream.emit(first);
  stream.emit(chat(delta("b", "u2", "text_delta", 1)));
  stream.flush();
  assertEquals(out.map((u) => [u.seq, u.span]), [[0, 1], [1, 1]]);
  assert(out[0].update === first, "a run of one is the update itself");
});

Deno.test("each append moves the quiet window: a run flushes intervalMs after its LAST append", () => {
  // On a clock the test moves: what is checked is when, on that clock, the run left. How late a
  // real timer fires on a loaded machine is the lifecycle bench's figure, not this test's.
  const clock = new ManualClock(1_000);
  const stream = new UpdateStream({ intervalMs: 300, ceilingMs: 10_000 }, clock);
  const out = collect(stream);
  const flushedAt: number[] = [];
  stream.subscribe(() => flushedAt.push(clock.now()));
  stream.emit(chat(counter(1, 1, "u1")));
  clock.advanceBy(100);
  stream.emit(chat(counter(1, 2, "u2")));
  clock.advanceBy(299);
  assertEquals(out.length, 0, "299 after the last append the run is still held");
  clock.advanceBy(1);
  assertEquals(out.map((u) => [u.seq, u.span]), [[0, 2]], "both appends in one frame");
  assertEquals(flushedAt, [1_400], "it left 300 after the last append, not after the first");
});

Deno.test("the ceiling bounds how long a steady run is held", () => {
  const clock = new ManualClock(0);
  const stream = new UpdateStream({ intervalMs: 16, ceilingMs: 40 }, clock);
  const out = collect(stream);
  const flushedAt: number[] = [];
  stream.subscribe(() => flushedAt.push(clock.now()));
  // An append every 5 keeps the quiet window from ever closing; the ceiling flushes anyway.
  for (let i = 1; out.length === 0 && i < 100; i++) {
    stream.emit(chat(counter(1, i, `u${i}`)));
    clock.advanceBy(5);
  }
  assertEquals(flushedAt, [40], "the run left at its ceiling, 40 after its first append");
  assertEquals(out[0].seq, 0);
  assertEquals(out[0].span, 8, "the appends at 0, 5, ... 35, before the ceiling fired");
  stream.flush();
});

Deno.test("keyless and connection-only updates are never held or numbered on a seat", () => {
  const stream = new UpdateStream();
  const out = collect(stream);
  stream.emit({ name: "dictate_availability", fields: null });
  stream.emit(chat(counter(1, 1, "u1")), 7);
  assertEquals(out.map((u) => [u.seq, u.only]), [[null, null], [0, 7]]);
});

Deno.test("a listener that throws is logged with the update's name; the others still hear it", () => {
  const log = memoryLogger();
  const ws = new Workspace(log, () => ({ orgs: [] }) as never);
  const heard: string[] = [];
  ws.stream.subscribe(() => {
    throw new TypeError("a listener's bug");
  });
  ws.stream.subscribe((n) => heard.push(n.update.name));
  ws.emit({ name: "dictate_availability", fields: null });
  assertEquals(heard, ["dictate_availability"]);
  const failed = log.records.find((r) => r.event === "stream_listener_failed") as
    | { update: string; error: Error }
    | undefined;
  assertEquals([failed?.update, failed?.error.message], [
    "dictate_availability",
    "a listener's bug",
  ]);
});
