import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { catalogueAreas } from "../registry.ts";
import { CORE_AREAS } from "./core_areas.ts";
import { fingerprint } from "./fingerprint.ts";
import { headerValueFault } from "./header_value.ts";
import { ConfigError, loadConfigText } from "./load.ts";
import { saveSettings } from "./write/writer.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
/** The half of a planted token no refusal may say. */
const HIDDEN = "SECONDHALFSECRET";
const ACCOUNT = `[[accounts]]\ndisplay_name = "Main"\nprovider = "anthropic"\n`;

function refusal(text: string): ConfigError {
  try {
    loadConfigText(text, "/etc/forge.toml", areas);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("loaded, but should have been refused");
}

Deno.test("headerValueFault: what Headers refuses is refused; a clean credential is not", () => {
  const refused = ["sk-a\nb", "sk-a\rb", "sk-a\r\nb", "sk-a\0b", "sk-a\x01b", "sk-a\x7fb"];
  for (const v of [...refused, "sk-\u201cab", "sk-a\u00a0b", "sk-a\u2028b"]) {
    assert(headerValueFault(v) !== null, JSON.stringify(v));
  }
  assertMatch(headerValueFault("sk-a\nb")!, /^holds a line break/);
  assertMatch(headerValueFault("sk-a\0b")!, /^holds a NUL/);
  // What the check passes, Headers carries (its ends stripped); a line break or NUL it throws on.
  for (const v of ["sk-ant-api03-abc_DEF-123", "  tok \n", "\ntok\n", "a\tb"]) {
    assertEquals(headerValueFault(v), null, JSON.stringify(v));
    new Headers({ "x-api-key": v });
  }
  for (const v of ["sk-a\nb", "sk-a\rb", "sk-a\0b"]) {
    let threw = false;
    try {
      new Headers({ "x-api-key": v });
    } catch {
      threw = true;
    }
    assert(threw, JSON.stringify(v));
  }
});

// Every credential that becomes a header value is refused at load by its key, never echoed.
Deno.test("the loader refuses a credential a header cannot carry, naming the key, not the value", () => {
  const cases: [string, string, RegExp][] = [
    [`${ACCOUNT}token = "sk-ant-api03-FIRST\\n${HIDDEN}"\n`, "accounts[0].token", /`token`/],
    [`${ACCOUNT}token = """\nsk-ant-api03-FIRST\n${HIDDEN}"""\n`, "accounts[0].token", /`token`/],
    [`[notify.ntfy]\ntoken = "tk_\\r${HIDDEN}"\n`, "notify.ntfy.token", /`token`/],
    [`[notify.gotify]\napp_token = "A\\u0000${HIDDEN}"\n`, "notify.gotify.app_token", /app_token/],
    [
      `[gotify]\nurl = "http://g"\nclient_token = "C\\n${HIDDEN}"\n`,
      "gotify.client_token",
      /`client_token`/,
    ],
    [`[[slack]]\nworkspace = "w"\ntoken = "xoxp-\\n${HIDDEN}"\n`, "slack[0].token", /`token`/],
  ];
  for (const [text, key, named] of cases) {
    const e = refusal(text);
    assertEquals(e.key, key);
    assertMatch(e.message, named);
    assertMatch(e.message, /holds a (line break|NUL|control character)/);
    assert(!e.message.includes(HIDDEN), e.message);
    assert(!e.message.includes("FIRST"), e.message);
  }
  assertMatch(
    refusal(cases[0][0]).message,
    /line 4, column 1 in `accounts\[0\]`: `token` holds a line break inside it/,
  );
  // A wrong kind is named, and a credential's value is not said even then.
  const e = refusal(`${ACCOUNT}token = 4242424242\n`);
  assertMatch(e.message, /`token` must be a string, not a number$/);
  // A token on its own line of a multi-line string is sent trimmed, as it always was.
  const wrapped = loadConfigText(`${ACCOUNT}token = """\nsk-ant-api03-whole\n"""\n`, "/x", areas);
  assertEquals(wrapped.config.accounts[0].token, "sk-ant-api03-whole\n");
});

// spec: Editing the config: a save runs the boot loader on the candidate; its refusal is the
// settings page's, so it names the key and says nothing of what was pasted.
Deno.test("a settings save of a token with a line break is refused by key; the file is untouched", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/forge.toml`;
    const before = `${ACCOUNT}token = "sk-ant-api03-good"\n`;
    await Deno.writeTextFile(path, before);
    const r = await saveSettings({
      path,
      fingerprint: fingerprint(before),
      edits: [{
        area: "accounts",
        key_path: "accounts.Main.token",
        pattern: "accounts[].token",
        op: "set",
        value: `sk-ant-api03-FIRST\n${HIDDEN}`,
      }],
      validate: (text) => {
        try {
          loadConfigText(text, path, areas);
          return null;
        } catch (err) {
          return (err as ConfigError).message;
        }
      },
    });
    assert(!r.ok);
    assertEquals([r.reason, r.key_path], ["invalid", "accounts.Main.token"]);
    assertMatch(r.message, /in `accounts\[0\]`: `token` holds a line break/);
    assert(!r.message.includes(HIDDEN), r.message);
    assertEquals(await Deno.readTextFile(path), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
