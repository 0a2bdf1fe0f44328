import { assertEquals } from "../../../../tests/assert.ts";
import { genericAnswer } from "./asks.ts";

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
