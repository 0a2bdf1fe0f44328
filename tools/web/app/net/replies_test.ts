import { assertEquals, assertRejects } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import type { ClientMessage } from "../../../../protocol/mod.ts";
import { Replies, REPLY_BOUND_MS } from "./replies.ts";

// A reply the page waits on ends in its body or in words, never in silence: not sent, dropped
// with the connection, or past the bound. spec: command > reply_to.

const spawn = (reply_to: number): ClientMessage => ({
  kind: "command",
  command: {
    spawn_worker: {
      project_key: "p",
      label: "w",
      charter: "",
      spawned_by: { org: "o", project: "p", label: "lead" },
    },
  },
  reply_to,
});

Deno.test("replies: an answer resolves its own ask and stops its bound", async () => {
  const clock = new ManualClock();
  const r = new Replies(clock);
  const sent: ClientMessage[] = [];
  const asked = r.ask(spawn, (m) => sent.push(m) > 0);
  const id = (sent[0] as { reply_to: number }).reply_to;
  assertEquals(r.answer(id + 1, "other"), false);
  assertEquals(r.answer(id, { Ok: 1 }), true);
  assertEquals(await asked, { Ok: 1 });
  assertEquals(clock.pending, 0);
});

Deno.test("replies: nothing to send on says not sent", async () => {
  const r = new Replies(new ManualClock());
  await assertRejects(
    () => r.ask(spawn, () => false),
    /^spawn_worker was not sent: the connection to forge is down\.$/,
  );
});

Deno.test("replies: a dropped connection fails every reply still out, in words", async () => {
  const clock = new ManualClock();
  const r = new Replies(clock);
  const a = r.ask(spawn, () => true);
  const b = r.ask(
    (id) => ({
      kind: "browser_tabs",
      seat: { org: "A", project: "p", label: "lead" },
      reply_to: id,
    }),
    () => true,
  );
  r.dropped();
  await assertRejects(() => a, /dropped before it answered spawn_worker; it may or may not/);
  await assertRejects(() => b, /dropped before it answered browser_tabs/);
  assertEquals(clock.pending, 0);
});

Deno.test("replies: no answer within the bound says so", async () => {
  const clock = new ManualClock();
  const r = new Replies(clock);
  const asked = r.ask(spawn, () => true);
  let settled = false;
  asked.catch(() => {}).finally(() => settled = true);
  clock.advanceBy(REPLY_BOUND_MS - 1);
  await Promise.resolve();
  assertEquals(settled, false);
  clock.advanceBy(1);
  await assertRejects(() => asked, /^forge did not answer spawn_worker within 120 s\.$/);
});
