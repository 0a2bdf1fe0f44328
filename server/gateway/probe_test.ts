import { assert, assertEquals } from "../../tests/assert.ts";
import type { AccountConfig } from "../config/types.ts";
import { defaultClaudeDir } from "../workspace/claude/paths.ts";
import { probeAccount } from "./probe.ts";

// docs/accounts.md: an account that names no config dir logs in where the CLI
// forge launches would, so the probe looks where the launch points the CLI.
Deno.test("defaultClaudeDir: $CLAUDE_CONFIG_DIR, else ~/.claude (an empty one counts as unset)", () => {
  assertEquals(defaultClaudeDir({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "/cc" }), "/cc");
  assertEquals(defaultClaudeDir({ HOME: "/home/me" }), "/home/me/.claude");
  assertEquals(defaultClaudeDir({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "" }), "/home/me/.claude");
});

Deno.test("probeAccount: an account with no config_dir is probed in the default dir it is given", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const account = { display_name: "Mine" } as AccountConfig;
    assertEquals(await probeAccount(account, dir), { ok: true, headers: null });
    assertEquals(await probeAccount(account, `${dir}/gone`), {
      ok: false,
      why: `config_dir ${dir}/gone does not exist`,
    });
    const named = { display_name: "Named", config_dir: `${dir}/named` } as AccountConfig;
    assertEquals(await probeAccount(named, dir), {
      ok: false,
      why: `config_dir ${dir}/named does not exist`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// A token the loader would refuse (a config built some other way): the probe fails in forge's
// words naming the account, and nothing of the token is said (the engine's header error quotes
// it whole). Nothing is sent: the upstream is a port no one listens on.
Deno.test("probeAccount: a token a header cannot carry is a failed probe in words, never echoed", async () => {
  const account = {
    display_name: "Main",
    provider: "anthropic",
    token: "sk-ant-api03-FIRSTHALF\nSECONDHALFSECRET",
    base_url: "http://127.0.0.1:9",
  } as AccountConfig;
  const result = await probeAccount(account, "/nowhere");
  assertEquals(result, {
    ok: false,
    why: "account Main's token holds a line break inside it, which an HTTP header cannot " +
      "carry; write it on one line (forge.toml)",
  });
});

Deno.test("probeAccount: a failed probe names its upstream without a base_url's password", async () => {
  const account = {
    display_name: "Main",
    provider: "anthropic",
    token: "sk-ant-api03-good",
    base_url: "http://user:pw-planted-in-url@127.0.0.1:9",
  } as AccountConfig;
  const result = await probeAccount(account, "/nowhere");
  assertEquals(result.ok, false);
  assert(!result.ok && result.why.startsWith("http://127.0.0.1:9 could not be reached: "));
});
