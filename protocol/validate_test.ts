import { assertEquals } from "../tests/assert.ts";
import { WireChecker } from "./validate.ts";

// A validating client reads every frame all the way in: a frame whose envelope is right but
// whose update, snapshot, repaired frame or reply body is off its schema is named.
const key = { org: "Acme", project: "proj", label: "lead" };
const update = (u: unknown) => ({ kind: "update", update: u, seq: 0, span: 1 });

Deno.test("WireChecker: the envelope, an update's fields, a repaired frame", () => {
  const w = new WireChecker();
  assertEquals(w.check({ kind: "pong" }), []);
  assertEquals(w.check({ kind: "pong", extra: 1 }).length, 1);
  assertEquals(w.check(update({ releasing: { key } })), []);
  assertEquals(w.check(update("dictate_availability")), []);
  const [missing] = w.check(update({ prompt_queued: { key, uuid: "u", source: "you" } }));
  assertEquals(missing.startsWith("update prompt_queued: "), true, missing);
  assertEquals(w.check(update({ no_such_update: { key } })), [
    "update unknown update `no_such_update`",
  ]);
  const frames = (u: unknown) => ({
    kind: "seat_frames",
    slot: key,
    epoch: "e",
    frames: [{ seq: 0, update: { releasing: { key } } }, { seq: 1, update: u }],
  });
  assertEquals(w.check(frames({ releasing: { key } })), []);
  assertEquals(w.check(frames({ releasing: {} })).length, 1);
});

Deno.test("WireChecker: a snapshot's data against its subject's schema", () => {
  const w = new WireChecker();
  const [home] = w.check({ kind: "snapshot", subject: "home", data: { projects: [] } });
  assertEquals(home.startsWith('snapshot of "home": '), true, home);
  assertEquals(w.check({ kind: "snapshot", subject: "board", data: { projects: [] } }), []);
});

Deno.test("WireChecker: a reply's body against its command's reply schema, a refusal in words", () => {
  const w = new WireChecker();
  const fields = { project: "p", branch: "main", thread: {} };
  w.sent({ kind: "command", command: { upsert_review_thread: fields }, reply_to: 7 });
  assertEquals(w.check({ kind: "reply", reply_to: 7, body: true }), []);
  w.sent({ kind: "command", command: { upsert_review_thread: fields }, reply_to: 8 });
  assertEquals(w.check({ kind: "reply", reply_to: 8, body: "refused: the store is down" }), []);
  w.sent({ kind: "command", command: { upsert_review_thread: fields }, reply_to: 9 });
  assertEquals(w.check({ kind: "reply", reply_to: 9, body: { stored: 1 } }).length, 1);
  // A reply nobody here asked for is read by its envelope alone.
  assertEquals(w.check({ kind: "reply", reply_to: 10, body: { any: 1 } }), []);
});
