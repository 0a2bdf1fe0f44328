import { assertEquals, assertMatch } from "./assert.ts";
import type { ReviewThread } from "../protocol/mod.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";

const lead = { org: "Acme", project: "proj", label: "lead" };
// A well-formed review thread: the command's schema checks it before the subsystem is asked.
const THREAD = {
  id: "t1",
  anchor: { path: "a", side: "new", line: 1, content_hash: "1", context: [], base_ref: "main" },
  comments: [],
  status: "open",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  commit: null,
} satisfies ReviewThread;

// spec: command > reply_to: required on the reply commands, refused on the rest, before running.
Deno.test("reply_to is enforced both ways before the command runs", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.send({
    kind: "command",
    command: {
      submit_review: {
        project: "proj",
        branch: "main",
        summary: null,
        thread_ids: [],
        origin: lead,
      },
    },
  });
  let e = await c.next();
  assertEquals([e.kind, e.what], ["error", "reply_to"]);
  assertEquals(e.why, "submit_review requires reply_to: its outcome rides the reply");
  c.send({ kind: "command", command: { cancel: { key: lead } }, reply_to: 7 });
  e = await c.next();
  assertEquals([e.what, e.why], ["reply_to", "cancel takes no reply_to: it has no reply to send"]);
  // null and absent mean the same thing.
  c.send({ kind: "command", command: "vault_lock", reply_to: null });
  e = await c.next();
  assertEquals(e.what, "dispatch");
  assertMatch(String(e.why), /^vault_lock: the vault subsystem is turned off by vault\.enabled/);
});

Deno.test("a reply command refused by the core answers in its reply body", async () => {
  await using t = await testServer(SAMPLE_CONFIG + "\n[review]\nenabled = false\n");
  const c = await t.ready();
  c.send({
    kind: "command",
    command: { upsert_review_thread: { project: "proj", branch: "main", thread: THREAD } },
    reply_to: 41,
  });
  const r = await c.next();
  assertEquals(r, {
    kind: "reply",
    reply_to: 41,
    body: "the review subsystem is turned off by review.enabled in forge.toml",
  });
});

Deno.test("malformed commands are refused naming the field or the variant", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.sendUntyped({ kind: "command", command: { warp_drive: {} } });
  assertEquals((await c.next()).why, "unknown command `warp_drive`");
  c.sendUntyped({ kind: "command", command: { cancel: { key: { org: "Acme" } } } });
  assertMatch(String((await c.next()).why), /^cancel: key\.project/);
  c.sendUntyped({ kind: "command", command: { vault_lock: {} } });
  assertEquals((await c.next()).why, "`vault_lock` is a unit variant: send its name alone");
  c.sendUntyped({ kind: "command", command: "cancel" });
  assertEquals((await c.next()).why, '`cancel` needs its fields: {"cancel": {...}}');
  c.sendUntyped({ kind: "command", command: { cancel: { key: lead }, prompt: {} } });
  assertMatch(String((await c.next()).why), /^a command is one variant/);
});

// A bad field is refused by the command's schema before any subsystem runs: in the reply's body
// when the command answers through one, else as an error frame naming the command and the field.
Deno.test("a bad field is refused in the core's words, through the reply where there is one", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  const note = { app: "ci", title: "red", message: "failed", priority: "high" };
  c.sendUntyped({
    kind: "command",
    command: { deliver_gotify_message: { project: "x", notification: note } },
  });
  const e = await c.next();
  assertEquals(
    [e.kind, e.what, e.why],
    [
      "error",
      "command",
      "deliver_gotify_message: notification.priority: expected a number, got a string",
    ],
  );
  // A bag whose `key` is a whole Slot names that seat on the error.
  c.sendUntyped({
    kind: "command",
    command: { respond_vault_ask: { key: lead, id: "x", answer: "maybe" } },
  });
  const v = await c.next();
  assertEquals(
    [v.seat, v.why],
    [lead, 'respond_vault_ask: answer: expected "decline" or an object, got a string'],
  );
  const bad = { project: "proj", branch: "main", thread: { ...THREAD, status: "closed" } };
  c.sendUntyped({ kind: "command", command: { upsert_review_thread: bad }, reply_to: 9 });
  assertEquals(await c.next(), {
    kind: "reply",
    reply_to: 9,
    body:
      'upsert_review_thread: thread.status: expected one of "open", "addressed", "resolved", "outdated", got "closed"',
  });
});
