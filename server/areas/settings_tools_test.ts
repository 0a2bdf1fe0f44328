// The settings family: settings__get reads keys with value and class; an agent is shown
// that a secret is set, never the secret: no secret in any frame but its one answer.
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import type { SettingsDocument, SettingsKey } from "../../protocol/mod.ts";
import type { ToolCall } from "../subsystem.ts";
import { settingsGet } from "./settings_tools.ts";

const row = (
  path: string,
  value: SettingsKey["value"],
  cls: SettingsKey["class"],
): SettingsKey => ({
  path,
  leaf: path.split(".").at(-1)!,
  group: [],
  pattern: path,
  kind: "string",
  value,
  class: cls,
  edit: { kind: "string", required: false },
});

const doc = {
  version: "test",
  source: "/tmp/forge.toml",
  fingerprint: "0123456789abcdef",
  totals: { keys: 3, areas: 1 },
  areas: [{
    id: "core",
    name: "core",
    note: "",
    keys: [
      row("server.port", 8790, "restart"),
      row("accounts.Fake.token", "sk-very-secret", "next_session"),
      row("accounts.Other.token", null, "next_session"),
    ],
  }],
} as SettingsDocument;

Deno.test("settings__get: asked keys with value and class; secrets masked; unknown keys named", async () => {
  const get = settingsGet(() => doc);
  const call = {} as ToolCall;
  const all = JSON.parse((await get({}, call)).text);
  assertEquals(all, [
    { path: "server.port", value: 8790, class: "restart" },
    {
      path: "accounts.Fake.token",
      value: "(set; secret values are not shown to agents)",
      class: "next_session",
    },
    { path: "accounts.Other.token", value: null, class: "next_session" },
  ]);
  const one = JSON.parse((await get({ keys: ["server.port"] }, call)).text);
  assertEquals(one, [{ path: "server.port", value: 8790, class: "restart" }]);
  const bad = await get({ keys: ["server.nope", "server.port"] }, call);
  assertEquals(bad.isError, true);
  assertMatch(bad.text, /forge.toml has no key `server.nope`/);
});
