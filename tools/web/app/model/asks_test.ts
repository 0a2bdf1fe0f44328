import { assertEquals } from "../../../../tests/assert.ts";
import { genericAnswer, resolvedNotice } from "./asks.ts";

// spec: subscribe > answering - a client that declares it must draw what it is handed; kinds the
// page has no card for are answered through the protocol's own `respond_<kind>`.
Deno.test("asks: a yes/no respond_<kind> answers a kind with no card of its own", () => {
  assertEquals(genericAnswer("settings_write"), {
    command: "respond_settings_write",
    field: "approved",
  });
  assertEquals(genericAnswer("slack_post"), { command: "respond_slack_post", field: "approved" });
  assertEquals(genericAnswer("browser_hand_off"), {
    command: "respond_browser_hand_off",
    field: "done",
  });
  // A richer answer (the vault's approve / send back / decline) is not guessed at.
  assertEquals(genericAnswer("vault_ask"), null);
  assertEquals(genericAnswer("no_such_kind"), null);
});

// forge's `failure` on a held ask's `_resolved` (an approved effect that did not land) and the
// endings nobody answered are said; an answer the person gave is not said back.
Deno.test("asks: a resolved ask's failure and an expired or abandoned one are said", () => {
  const key = { org: "Acme", project: "alpha", label: "lead" };
  const failure = "settings__set: the person approved, but the write was refused (io)";
  assertEquals(
    resolvedNotice({
      name: "settings_write_resolved",
      fields: { key, id: "a1", ending: "answered", failure },
    }),
    { severity: "error", text: `settings_write: ${failure}` },
  );
  assertEquals(
    resolvedNotice({
      name: "slack_draft_resolved",
      fields: { key, id: "d1", ending: "expired", failure: null },
    }),
    { severity: "warning", text: "slack_post: it expired before anyone answered it" },
  );
  assertEquals(
    resolvedNotice({
      name: "vault_ask_resolved",
      fields: { key, id: "v1", ending: "abandoned", failure: null },
    })?.text,
    "vault_ask: it was abandoned before anyone answered it (its call ended)",
  );
  for (const ending of ["answered", "declined", "cancelled", "session_ended"]) {
    const fields = { key, id: "b1", ending, failure: null };
    assertEquals(resolvedNotice({ name: "browser_hand_off_resolved", fields }), null);
  }
  const slackAnswered = { answered: { approved: true } };
  assertEquals(
    resolvedNotice({
      name: "slack_draft_resolved",
      fields: { key, id: "d2", ending: slackAnswered, failure: null },
    }),
    null,
  );
  assertEquals(
    resolvedNotice({
      name: "prompt_cancel_resolved",
      fields: { key, uuid: "u", cancelled: false },
    }),
    null,
  );
});
