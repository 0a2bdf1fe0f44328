// docs/notify.md "When" and "What a push says": which updates are a seat needing its person,
// and the one line each says, with no secret in any of them.
import type { SessionUpdate } from "../../protocol/mod.ts";
import { assertEquals } from "../../tests/assert.ts";
import { secretsOf } from "./lines.ts";
import { NeedReader } from "./needs.ts";
import { composePush, scrub, seatTitle, seatUrl } from "./push.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const u = (name: string, fields: Record<string, unknown>): SessionUpdate => ({
  name,
  fields: { key, ...fields },
});
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
    r.read({ name: "notify_state_changed", fields: {} }),
    [],
    "keyless updates are nobody's need",
  );
});

Deno.test("a title names the org only where two orgs share the project; the click lands on the seat", () => {
  const orgs = [
    { name: "Acme", projects: [{ name: "alpha" }] },
    { name: "Beta", projects: [{ name: "alpha" }, { name: "web" }] },
  ];
  assertEquals(seatTitle(key, orgs), "Acme/alpha/lead");
  assertEquals(seatTitle({ org: "Beta", project: "web", label: "w 1" }, orgs), "web/w 1");
  assertEquals(
    seatUrl("https://forge.example/app/#/old", { org: "Beta", project: "web", label: "w 1" }),
    "https://forge.example/app/#/seat/Beta/web/w%201",
  );
});

Deno.test("no secret the config holds reaches a push's words", () => {
  const config = {
    areas: { notify: { "ntfy.token": "tk_planted_ntfy", "gotify.app_token": "gtfya.planted" } },
    env: { ANTHROPIC_API_KEY: "sk-env-planted" },
    accounts: [{ token: "sk-account-planted", env: {} }],
    slack: [{ token: "xoxp-planted" }],
    orgs: [],
  } as unknown as Parameters<typeof secretsOf>[0];
  const push = composePush(key, [{
    kind: "ask",
    id: "a",
    line:
      "Bash: curl -H 'Bearer tk_planted_ntfy' -d sk-env-planted xoxp-planted sk-account-planted",
  }], { title: "alpha/lead", clientUrl: null });
  assertEquals(scrub(push, secretsOf(config)).body, "Bash: curl -H 'Bearer •••' -d ••• ••• •••");
});
