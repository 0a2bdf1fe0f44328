import { assert, assertEquals } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import type { ClientMessage } from "../../../../protocol/mod.ts";
import { HistoryWalk, WALK_BOUND_MS, WALK_RETRIES, walkBackoffMs } from "./history_walk.ts";

// The walk up a history never stalls: a `more` not answered, refused or not sent is asked again
// after a backoff, and after the last try the walk says it gave up. spec: more.

const SEAT = { org: "Acme", project: "p", label: "lead" };

function walk(sendOk = () => true) {
  const clock = new ManualClock();
  const state = { walking: false, walkFailed: null as string | null };
  const sent: ClientMessage[] = [];
  const w = new HistoryWalk(state, (m) => (sent.push(m), sendOk()), () => {}, clock);
  const up = () => w.up(SEAT, "c1", 20);
  return { clock, state, sent, w, up };
}

Deno.test("walk: one `more` at a time; its page ends the walk's wait", () => {
  const t = walk();
  t.up();
  t.up();
  assertEquals(t.sent.length, 1);
  assertEquals(t.state.walking, true);
  t.w.landed();
  assertEquals(t.state.walking, false);
  assertEquals(t.clock.pending, 0);
});

Deno.test("walk: an unanswered `more` is asked again after the bound and a backoff", () => {
  const t = walk();
  t.up();
  t.clock.advanceBy(WALK_BOUND_MS - 1);
  assertEquals(t.sent.length, 1);
  t.clock.advanceBy(1 + walkBackoffMs(1));
  assertEquals(t.sent.length, 2);
  t.w.landed();
  assertEquals(t.state.walkFailed, null);
});

Deno.test("walk: a refusal repeated past the last try gives up in words, and Retry restarts", () => {
  const t = walk();
  t.up();
  for (let n = 1; n <= WALK_RETRIES; n++) {
    t.w.refused("the cursor is stale", t.up);
    t.up(); // the chat asks on every draw: a waiting retry is not jumped
    assertEquals(t.sent.length, n);
    t.clock.advanceBy(walkBackoffMs(n));
    assertEquals(t.sent.length, n + 1);
  }
  t.w.refused("the cursor is stale", t.up);
  assertEquals(t.state.walking, false);
  assert(t.state.walkFailed?.includes("the cursor is stale"), String(t.state.walkFailed));
  assert(t.state.walkFailed?.includes(`gave up after ${WALK_RETRIES + 1} tries`));
  t.up();
  assertEquals(t.sent.length, WALK_RETRIES + 1, "a walk that gave up asks nothing more");
  t.w.reset();
  t.up();
  assertEquals(t.sent.length, WALK_RETRIES + 2);
});

Deno.test("walk: no socket to send on is retried like a refusal", () => {
  let up = false;
  const t = walk(() => up);
  t.up();
  assertEquals(t.state.walking, true);
  up = true;
  t.clock.advanceBy(walkBackoffMs(1));
  assertEquals(t.sent.length, 2);
  t.w.landed();
  assertEquals(t.state.walking, false);
});
