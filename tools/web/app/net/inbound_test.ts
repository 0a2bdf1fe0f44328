import { assert, assertEquals, assertMatch } from "../../../../tests/assert.ts";
import { UPDATES, type Wire } from "../../../../protocol/mod.ts";
import { readInbound } from "./inbound.ts";

// Every frame is read against protocol/'s schemas before anything draws it, in one pass: an
// update's body is walked once, by its variant's schema. spec: What a client receives; How a
// message is tagged.
const key = { org: "o", project: "p", label: "lead" };
const queued = { key, uuid: "u1", source: "you", text: "hi" };

/** `fields` wrapped so every read of its `text` is counted: one read per walk of the bag. */
function counted(fields: Record<string, Wire>): { bag: Record<string, Wire>; reads: () => number } {
  let n = 0;
  const bag = new Proxy(fields, {
    get(target, prop, receiver) {
      if (prop === "text") n++;
      return Reflect.get(target, prop, receiver);
    },
  });
  return { bag, reads: () => n };
}

Deno.test("inbound: an update frame's body is walked once, by its variant's schema", () => {
  const alone = counted({ ...queued });
  assert(UPDATES.prompt_queued.fields.safeParse(alone.bag).success);
  const once = alone.reads();
  assert(once > 0);
  const framed = counted({ ...queued });
  const read = readInbound({ kind: "update", update: { prompt_queued: framed.bag }, seq: 4 });
  assert(read.ok && read.frame.kind === "update");
  assertEquals([read.frame.update.name, read.frame.seq, read.frame.span], [
    "prompt_queued",
    4,
    undefined,
  ]);
  assertEquals(framed.reads(), once);
});

Deno.test("inbound: an update off its schema, or an envelope off its own, is refused in words", () => {
  const bad = readInbound({ kind: "update", update: { prompt_queued: { ...queued, text: 3 } } });
  assertMatch(bad.ok ? "" : bad.why, /^prompt_queued: text: /);
  const envelope = readInbound({ kind: "update", update: "dictate_availability", seq: "7" });
  assertMatch(envelope.ok ? "" : envelope.why, /^update: seq: /);
  const stray = readInbound({ kind: "update", update: "dictate_availability", colour: 1 });
  assertMatch(stray.ok ? "" : stray.why, /^update: .*colour/);
  const none = readInbound({ kind: "update" });
  assertEquals(none.ok ? "" : none.why, "update: `update` is missing");
  const greeting = readInbound({ kind: "greeting", version: "twenty-nine" });
  assertMatch(greeting.ok ? "" : greeting.why, /^greeting: /);
  assertMatch((readInbound([1, 2]) as { why: string }).why, /^a frame: /);
});

Deno.test("inbound: a repair's frame off its schema is refused on its own; the rest are read", () => {
  const read = readInbound({
    kind: "seat_frames",
    slot: key,
    epoch: "e1",
    frames: [
      { seq: 5, update: { prompt_queued: queued } },
      { seq: 6, update: { prompt_queued: { ...queued, uuid: 9 } } },
      { update: { prompt_queued: queued } },
    ],
  });
  assert(read.ok && read.frame.kind === "seat_frames");
  const frames = read.frame.frames;
  assertEquals(frames.map((f) => [f.seq, f.update.known]), [[5, true], [6, "invalid"], [
    null,
    "invalid",
  ]]);
  const why = frames.map((f) => f.update.known === "invalid" ? f.update.why : "");
  assertMatch(why[1], /^seat_frames frame 1: prompt_queued: uuid: /);
  assertMatch(why[2], /^seat_frames frame 2: seq: /);
  const notList = readInbound({ kind: "seat_frames", slot: key, epoch: "e1", frames: {} });
  assertEquals(notList.ok ? "" : notList.why, "seat_frames: `frames` is not a list");
});
