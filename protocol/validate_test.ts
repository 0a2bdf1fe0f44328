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
  assertEquals(missing.startsWith("update: prompt_queued: "), true, missing);
  assertEquals(w.check(update({ no_such_update: { key } })), [
    "update: unknown update `no_such_update`",
  ]);
  const frames = (u: unknown) => ({
    kind: "seat_frames",
    slot: key,
    epoch: "e",
    frames: [{ seq: 0, update: { releasing: { key } } }, { seq: 1, update: u }],
  });
  assertEquals(w.check(frames({ releasing: { key } })), []);
  assertEquals(w.check(frames({ releasing: {} })).length, 1);
  // A repaired frame is a row of its own shape: its number beside its update, nothing else.
  assertEquals(
    w.check({
      kind: "seat_frames",
      slot: key,
      epoch: "e",
      frames: [{ update: "dictate_availability" }],
    }),
    ["seat_frames: frames.0.seq: missing (expected a number)"],
  );
  assertEquals(w.check(frames({ no_such_update: {} })), [
    "seat_frames: frames.1.update: unknown update `no_such_update`",
  ]);
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

Deno.test("WireChecker: a verb's reply against its own schema, its refusal the {ok: false} arm", () => {
  const w = new WireChecker();
  w.sent({ kind: "terminal_view", seat: key, reply_to: 1 });
  assertEquals(w.check({ kind: "reply", reply_to: 1, body: { ok: true, id: 3 } }), []);
  w.sent({ kind: "terminal_view", seat: key, reply_to: 2 });
  assertEquals(
    w.check({ kind: "reply", reply_to: 2, body: { ok: false, why: "no terminal" } }),
    [],
  );
  w.sent({ kind: "browser_view", seat: key, reply_to: 3 });
  assertEquals(w.check({ kind: "reply", reply_to: 3, body: { ok: true, tab: 1 } }), [
    "reply to browser_view: profile: missing (expected a string)",
  ]);
  // A verb's refusal is its schema's own arm: a bare sentence is off it.
  w.sent({ kind: "browser_tabs", seat: key, reply_to: 4 });
  assertEquals(w.check({ kind: "reply", reply_to: 4, body: "refused" }).length, 1);
  w.sent({ kind: "commit_diff", session: key, sha: "abc", reply_to: 5 });
  assertEquals(w.check({ kind: "reply", reply_to: 5, body: { ok: true, commit: "abc" } }), [
    'reply to commit_diff: diff: missing (expected one of "clean", "scan_failed" or an object)',
  ]);
});

Deno.test("WireChecker: a document read's threads and a page's turns are read too", () => {
  const w = new WireChecker();
  const read = {
    kind: "document_read",
    session: key,
    path: "/tree/a.md",
    document_kind: "markdown",
    bytes: "",
    reviewable: true,
    content_hash: "1",
    threads: [],
    reviews: [],
  };
  assertEquals(w.check(read), []);
  assertEquals(
    w.check({ ...read, threads: [{ id: "t1" }] })[0].startsWith("document_read: threads.0."),
    true,
  );
  assertEquals(w.check({ ...read, reviews: [7] }), [
    "document_read: reviews.0: expected an object, got 7",
  ]);
  const page = {
    kind: "page",
    conversation: key,
    turns: [{ key: null, messages: [] }],
    cursor: null,
  };
  assertEquals(w.check(page), []);
  assertEquals(w.check({ ...page, turns: [{ messages: [] }] }), [
    "page: turns.0.key: missing (expected a string)",
  ]);
  assertEquals(w.check({ ...page, turns: [[]] }), [
    "page: turns.0: expected an object, got a list",
  ]);
});
