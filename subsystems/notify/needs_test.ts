// docs/notify.md "When" and "What a push says": which updates are a seat needing its person,
// and the one line each says, with no secret in any of them.
import type { SessionUpdate } from "../../protocol/mod.ts";
import { assertEquals } from "../../tests/assert.ts";
import { HELD_UPDATES } from "../../protocol/mod.ts";
import { HELD_BY_UPDATE, NeedReader } from "./needs.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
// Partial field bags: the reader reads only the fields it names, so each update here carries
// just those (a whole one is what the wire validates; see protocol/update_test.ts).
const u = (name: string, fields: Record<string, unknown>) =>
  ({ name, fields: { key, ...fields } }) as unknown as SessionUpdate;
const lines = (r: NeedReader, update: SessionUpdate) =>
  r.read(update).map((
    c,
  ) => (c.type === "need" ? [c.need.kind, c.need.id, c.need.line] : ["gone", c.id]));

Deno.test("asks, their endings, failures, sign-ins and long turns are read off the stream", () => {
  let now = 0;
  const r = new NeedReader(() => now, () => 120_000);
  const long = "x".repeat(150);
  const bash = {
    tool_call: { title: `Bash: echo ${long}`, meta: { tool_name: "Bash" } },
    options: [],
  };
  assertEquals(lines(r, u("permission_request", { tool_id: "t1", request: bash })), [
    ["ask", "ask:t1", `Bash: ${`echo ${long}`.slice(0, 100)}…`],
  ]);
  const write = { tool_call: { title: "Write: /p/secret.env", meta: { tool_name: "Write" } } };
  assertEquals(
    lines(r, u("permission_request", { tool_id: "t2", request: write }))[0][2],
    "Write: /p/secret.env",
  );
  assertEquals(
    lines(
      r,
      u("question_request", {
        tool_id: "t3",
        request: { prompt: { question: "Which db?" }, question_index: 1 },
      }),
    ),
    [["ask", "ask:t3:1", "Which db?"]],
  );
  assertEquals(lines(r, u("pending_interaction_resolved", { tool_id: "t3", question_index: 1 })), [[
    "gone",
    "ask:t3:1",
  ]]);
  assertEquals(
    lines(r, u("pending_interaction_resolved", { tool_id: "t1", question_index: null })),
    [["gone", "ask:t1"]],
  );
  assertEquals(
    lines(
      r,
      u("settings_write_pending", {
        id: "s1",
        tool: "settings__set",
        keys: [{ path: "client.mark", after: "klin" }, {
          path: "notify.ntfy.token",
          after: "tk_planted",
        }],
      }),
    ),
    [["ask", "held:s1", "change client.mark to klin, change notify.ntfy.token"]],
  );
  // A value is said only where it cannot be a credential: not under env (a DATABASE_URL holds
  // its password), not an ntfy topic (a password on a public server), not a whole table.
  const setting = (path: string, after: unknown) =>
    lines(r, u("settings_write_pending", { id: path, keys: [{ path, after }] }))[0][2];
  assertEquals(setting("env.DATABASE_URL", "postgres://app:pw@db/app"), "change env.DATABASE_URL");
  assertEquals(
    setting("orgs[0].projects[1].env.LOG", "debug"),
    "change orgs[0].projects[1].env.LOG",
  );
  assertEquals(setting("env", { GH: "ghp_x" }), "change env");
  assertEquals(setting("notify.ntfy.topic", "s3cret-topic"), "change notify.ntfy.topic");
  assertEquals(setting("notify.kinds", ["ask"]), 'change notify.kinds to ["ask"]');
  assertEquals(
    lines(
      r,
      u("vault_ask_pending", { id: "v1", tool: "read", item: "prod db", field: "password" }),
    ),
    [["ask", "held:v1", "vault: read prod db"]],
  );
  assertEquals(lines(r, u("vault_ask_resolved", { id: "v1", ending: "answered" })), [[
    "gone",
    "held:v1",
  ]]);
  assertEquals(
    lines(
      r,
      u("slack_post_pending", {
        draft: { id: "d1", action: "post", conversation: "C0GEN", workspace: "acme", text: "hi" },
      }),
    ),
    [["ask", "held:d1", "slack: post in C0GEN (acme)"]],
  );
  assertEquals(lines(r, u("slack_draft_resolved", { id: "d1", ending: "expired" })), [[
    "gone",
    "held:d1",
  ]]);
  assertEquals(lines(r, u("turn_error", { message: "API Error: overloaded" }))[0].slice(0, 1), [
    "failed",
  ]);
  assertEquals(
    lines(
      r,
      u("connection_failed", {
        message: "claude exited (code 1) mid-turn; stderr: TOKEN=abc",
        fatal: true,
      }),
    )[0][2],
    "the session ended: claude exited (code 1) mid-turn",
  );
  assertEquals(
    lines(r, u("auth_required", { method_name: "Fake" }))[0][2],
    "the account Fake needs a sign-in",
  );
  // A turn is long by the CLI's own duration, else by forge's clock since it started.
  const result = (extra: Record<string, unknown>) =>
    u("chat_appended", { msg: { type: "result", subtype: "success", is_error: false, ...extra } });
  assertEquals(lines(r, result({ duration_ms: 119_000 })), []);
  assertEquals(
    lines(r, result({ duration_ms: 185_000 }))[0][2],
    "the turn finished after 3 min 5 s",
  );
  r.read(u("prompt_lifecycle", { uuid: "p", state: "started" }));
  now = 2 * 3600_000;
  assertEquals(lines(r, result({}))[0][2], "the turn finished after 2 h 0 min");
  assertEquals(
    r.read({ name: "notify_state_changed", fields: {} } as unknown as SessionUpdate),
    [],
    "keyless updates are nobody's need",
  );
});

Deno.test("the held asks' update names are the ones the seats emit", () => {
  // The seats' registry emits each kind's updates by this table (protocol/update.ts heldPending,
  // heldResolved), and protocol/update_test.ts holds every name in it to a real emit site.
  const emitted = Object.entries(HELD_UPDATES).flatMap(([kind, wire]) => [
    [wire.pending, kind, true],
    [wire.resolved, kind, false],
  ]);
  const read = [...HELD_BY_UPDATE].map(([name, h]) => [name, h.kind, h.pending]);
  assertEquals(read.map(String).sort(), emitted.map(String).sort());
});
