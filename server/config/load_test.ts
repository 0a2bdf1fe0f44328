import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { catalogueAreas } from "../registry.ts";
import { CORE_AREAS } from "./core_areas.ts";
import { buildDocument } from "./document.ts";
import { ConfigError, configPath, loadConfigText } from "./load.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);

function refusal(text: string): ConfigError {
  try {
    loadConfigText(text, "/etc/forge.toml", areas);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("loaded, but should have been refused");
}

Deno.test("no file: the built-in defaults, the server on 127.0.0.1:8790", () => {
  const { config } = loadConfigText("", "/x/forge.toml", areas);
  assertEquals([config.server.bind, config.server.port, config.server.enabled], [
    "127.0.0.1",
    8790,
    true,
  ]);
  assertEquals(config.areas.dictate.styling, "semi_formal");
  assertEquals(config.areas.dictate.structure, "prose");
  assertEquals(config.areas.dictate.context, "general");
  assertEquals(config.documents.max_size_mib, 10);
  assertEquals(config.orgs, []);
});

// Unknown keys are errors at load, with line and key: a typo is never silently ignored.
Deno.test("an unknown key is refused with file, line, column and key", () => {
  const e = refusal(`# header\n[server]\nport = 8790\n  prot = 1\n`);
  assertEquals(
    e.message,
    "forge.toml at /etc/forge.toml is invalid at line 4, column 3 in `server`: unknown key `prot`",
  );
  assertEquals(e.key, "server.prot");
});

Deno.test("an unknown key inside a repeated table is placed on its own entry", () => {
  const text =
    `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\n\n[[orgs]]\nname = "o"\naccounts = ["A"]\n\n` +
    `[[orgs.projects]]\nname = "p1"\npath = "/a"\n\n[[orgs.projects]]\nname = "p2"\npath = "/b"\nmodle = "x"\n`;
  const e = refusal(text);
  assertMatch(e.message, /line 16, column 1 in `orgs\[0\]\.projects\[1\]`: unknown key `modle`$/);
  assertEquals(e.key, "orgs[0].projects[1].modle");
});

Deno.test("a wrong type and a value outside its rule are refused by name", () => {
  assertMatch(
    refusal(`[server]\nport = "80"\n`).message,
    /line 2, column 1 in `server`: `port` must be a number, not a string/,
  );
  assertMatch(
    refusal(`[server]\nport = 70000\n`).message,
    /must be a whole number from 1 to 65535/,
  );
  assertMatch(
    refusal(`[client]\ntheme = "light"\n`).message,
    /in `client`: `theme` must be one of dark/,
  );
  assertMatch(refusal(`[server]\nbind = "example.com"\n`).message, /must be an IP address/);
  for (const bind of ["0.0.0.0", "::", "8.8.8.8", "2001:db8::1"]) {
    assertMatch(
      refusal(`[server]\nbind = "${bind}"\n`).message,
      /in `server`: `bind` must be a loopback or private network's address .* never served on a public/,
    );
  }
  assertMatch(refusal(`env = { A = 1 }\n`).message, /`env` must be a table of string values/);
  // A variable no environment can carry: refused by name, not at every seat's launch.
  assertMatch(refusal(`env = { "" = "x" }\n`).message, /`env` has a variable with an empty name/);
  assertMatch(refusal(`env = { "A=B" = "x" }\n`).message, /`env` has a variable "A=B" whose name/);
  assertMatch(
    refusal(
      `[[accounts]]\ndisplay_name = "a"\nprovider = "anthropic"\ntoken = "k"\nenv = { "\\u0000" = "x" }\n`,
    ).message,
    /in `accounts\[0\]`: `env` has a variable "\\u0000" whose name holds a NUL byte/,
  );
  assertMatch(
    refusal(`env = { A = "x\\u0000y" }\n`).message,
    /`env` has a variable "A" whose value holds a NUL byte/,
  );
});

Deno.test("a syntax error names its line and column", () => {
  assertMatch(refusal(`[server]\nport = = 1\n`).message, /failed to parse at line 2, column \d+/);
});

Deno.test("cross-key rules: unknown accounts, duplicate names, the gateway port", () => {
  assertMatch(
    refusal(`[[orgs]]\nname = "o"\naccounts = ["ghost"]\n`).message,
    /names account `ghost`, which no \[\[accounts\]\] declares/,
  );
  assertMatch(refusal(`[server]\nport = 8787\n`).message, /equals gateway\.port/);
  assertMatch(
    refusal(
      `[[orgs]]\nname="a"\n[[orgs.projects]]\nname="p"\npath="/a"\n[[orgs]]\nname="b"\n[[orgs.projects]]\nname="p"\npath="/b"\n`,
    ).message,
    /project `p` is declared twice/,
  );
});

Deno.test("config path: --config, then FORGE_CONFIG, then CLAUDE_CONFIG_DIR, then HOME", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assertEquals(configPath("/flag.toml", env({ FORGE_CONFIG: "/e.toml" })), "/flag.toml");
  assertEquals(configPath(null, env({ FORGE_CONFIG: "/e.toml", HOME: "/h" })), "/e.toml");
  assertEquals(
    configPath(null, env({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" })),
    "/c/forge/forge.toml",
  );
  assertEquals(configPath(null, env({ HOME: "/h" })), "/h/.claude/forge/forge.toml");
});

// spec: The effective config: path with instances, leaf, group, pattern, kind, class, edit.
Deno.test("the settings document names repeated keys by instance", () => {
  const text =
    `[[accounts]]\ndisplay_name = "Sub.space"\nprovider = "anthropic"\ntoken = "t"\n[[orgs]]\nname = "Acme"\naccounts = ["Sub.space"]\n` +
    `[[orgs.projects]]\nname = "proj"\npath = "~/p"\n`;
  const doc = buildDocument(loadConfigText(text, "/c/forge.toml", areas), areas, "0.1.0+abc");
  const keys = doc.areas.flatMap((a) => a.keys);
  const token = keys.find((k) => k.path === "accounts.Sub.space.token")!;
  assertEquals([token.leaf, token.group, token.pattern, token.kind, token.value, token.class], [
    "token",
    ["Sub.space"],
    "accounts[].token",
    "string",
    "t",
    "next_session",
  ]);
  assertEquals(token.edit, { kind: "string", required: false, group: "account" });
  const path = keys.find((k) => k.path === "orgs.Acme.projects.proj.path")!;
  assertEquals([path.group, path.value, path.edit.required], [["Acme", "proj"], "~/p", true]);
  const theme = keys.find((k) => k.path === "client.theme")!;
  assertEquals([theme.value, theme.edit], [null, {
    kind: "enum",
    allowed: ["dark"],
    required: false,
  }]);
  assertEquals(doc.totals, { keys: keys.length, areas: doc.areas.length });
  assertMatch(doc.fingerprint, /^[0-9a-f]{16}$/);
  const switches = keys.filter((k) => k.leaf === "enabled").map((k) => k.path);
  for (
    const s of [
      "terminal.enabled",
      "review.enabled",
      "usage.enabled",
      "browser.enabled",
      "dictate.enabled",
      "tts.enabled",
      "vault.enabled",
      "plugins.enabled",
    ]
  ) {
    assertEquals(switches.includes(s), true, `${s} missing`);
  }
});

// The hand-written samples the settings writer is tested on load under the catalogue.
Deno.test("the realistic forge.toml samples load under the catalogue", async () => {
  for (const name of ["full.toml", "compact.toml"]) {
    const path = new URL(`../../fixtures/forge_toml/${name}`, import.meta.url).pathname;
    const loaded = loadConfigText(await Deno.readTextFile(path), path, areas);
    assertEquals(loaded.config.orgs.length > 0, true, name);
  }
});

// Every key the catalogue marks required is enforced at load, with file, line, key.
Deno.test("a required key left out is refused on its own entry's line", () => {
  const text =
    `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\n\n[[orgs]]\nname = "o"\n` +
    `accounts = ["A"]\n\n[[orgs.projects]]\nname = "p1"\npath = "/a"\n\n[[orgs.projects]]\nname = "p2"\n`;
  const e = refusal(text);
  assertEquals(
    e.message,
    "forge.toml at /etc/forge.toml is invalid at line 13, column 1 in `orgs[0].projects[1]`: " +
      "`path` is required and missing",
  );
  assertEquals(e.key, "orgs[0].projects[1].path");
  assertMatch(
    refusal(`[[accounts]]\ndisplay_name = "A"\n`).message,
    /line 1, column 1 in `accounts\[0\]`: `provider` is required/,
  );
});

// A duplicate name is placed on the duplicate, not at line 1, column 1.
Deno.test("a duplicate name points at the duplicate's own line", () => {
  const accounts =
    `# accounts\n[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\n\n[[accounts]]\n` +
    `display_name = "A"\nprovider = "anthropic"\n`;
  assertMatch(
    refusal(accounts).message,
    /at line 7, column 1 in `accounts\[1\]\.display_name`: account `A` is declared twice/,
  );
  const projects =
    `[[orgs]]\nname="a"\n[[orgs.projects]]\nname="p"\npath="/a"\n[[orgs]]\nname="b"\n` +
    `[[orgs.projects]]\nname="p"\npath="/b"\n`;
  assertMatch(
    refusal(projects).message,
    /at line 9, column 1 in `orgs\[1\]\.projects\[0\]\.name`: project `p` is declared twice/,
  );
  assertMatch(
    refusal(`[[orgs]]\nname="a"\n\n[[orgs]]\n  name="a"\n`).message,
    /at line 5, column 3 in `orgs\[1\]\.name`: org `a` is declared twice/,
  );
});

// An unterminated string is worded as one, not as the newline the parser ran into.
Deno.test("an unterminated string is reported as one, at its line", () => {
  assertEquals(
    refusal(`[server]\nbind = "127.0.0.1\nport = 1\n`).message,
    "forge.toml at /etc/forge.toml failed to parse at line 2, column 18: a string is not closed " +
      'before the end of its line (close its quote, or use """ for a string of several lines)',
  );
  assertMatch(
    refusal(`[client]\ntheme = "da\u0001rk"\n`).message,
    /a string holds the control character U\+0001; write it as an escape/,
  );
});

// The rules a section states across its keys (as the original forge's forge.toml states them),
// each placed on the key it names.
const ACCOUNT = `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\nmodels = ["m1"]\n`;

Deno.test("[gotify] present needs its client_token and url", () => {
  const e = refusal(`${ACCOUNT}\n[gotify]\nurl = "https://push.example"\n`);
  assertEquals(
    e.message,
    "forge.toml at /etc/forge.toml is invalid at line 6, column 1 in `gotify.client_token`: " +
      "[gotify] is present but names no client_token",
  );
  assertEquals(e.key, "gotify.client_token");
  assertMatch(
    refusal(`[gotify]\nclient_token = "C0ffee"\n`).message,
    /line 1, column 1 in `gotify\.url`: \[gotify\] is present but names no url/,
  );
});

Deno.test("a [[slack]] workspace label declared twice is refused on the repeat", () => {
  const text = `[[slack]]\nworkspace = "acme"\ntoken = "xoxp-1"\n\n[[slack]]\n` +
    `token = "xoxp-2"\n  workspace = "acme"\n`;
  const e = refusal(text);
  assertEquals(
    e.message,
    "forge.toml at /etc/forge.toml is invalid at line 7, column 3 in `slack[1].workspace`: " +
      "slack workspace `acme` is declared twice (the label is unique)",
  );
});

Deno.test("codex, openrouter and zai accounts need a base_url; openrouter's ends in /api", () => {
  for (const provider of ["codex", "openrouter", "zai"]) {
    const text = `${ACCOUNT}\n[[accounts]]\ndisplay_name = "R"\nprovider = "${provider}"\n` +
      `token = "t"\nmodels = ["m1"]\n`;
    assertEquals(
      refusal(text).message,
      "forge.toml at /etc/forge.toml is invalid at line 6, column 1 in `accounts[1].base_url`: " +
        `account \`R\` (provider ${provider}) needs a base_url`,
    );
  }
  const wrong = `[[accounts]]\ndisplay_name = "R"\nprovider = "openrouter"\ntoken = "t"\n` +
    `base_url = "https://openrouter.example/v1"\nmodels = ["m1"]\n`;
  assertMatch(
    refusal(wrong).message,
    /line 5, column 1 in `accounts\[0\]\.base_url`: .*must end in \/api, not "https:\/\/openrouter\.example\/v1"/,
  );
  const anthropic = loadConfigText(ACCOUNT, "/c/forge.toml", areas);
  assertEquals(anthropic.config.accounts[0].base_url, null, "anthropic needs none");
});

Deno.test("model_slugs and model_aliases keys must be among the account's models", () => {
  const slugs = `${ACCOUNT}token = "t"\nmodel_slugs = { "m1" = "s1", "m2" = "s2" }\n`;
  const e = refusal(slugs);
  assertEquals(
    e.message,
    "forge.toml at /etc/forge.toml is invalid at line 6, column 1 in " +
      "`accounts[0].model_slugs.m2`: account `A`: model_slugs names `m2`, which its models list " +
      "does not (m1)",
  );
  assertEquals(e.key, "accounts[0].model_slugs.m2");
  assertMatch(
    refusal(`${ACCOUNT}[accounts.model_aliases]\nm3 = ["x"]\n`).message,
    /line 6, column 1 in `accounts\[0\]\.model_aliases\.m3`: .*names `m3`/,
  );
  assertMatch(
    refusal(`${ACCOUNT}model_aliases = { m1 = [] }\n`).message,
    /`accounts\[0\]\.model_aliases\.m1`: account `A`: model_aliases for `m1` is an empty list/,
  );
});

// An account with neither token nor config_dir is the CLI's own login in its default dir
// (docs/accounts.md; pool.ts `accountKind`): the original forge's `token` key predates config_dir.
Deno.test("an account with neither token nor config_dir loads as the default login", () => {
  const { config } = loadConfigText(ACCOUNT, "/c/forge.toml", areas);
  assertEquals([config.accounts[0].token, config.accounts[0].config_dir], [null, null]);
});

Deno.test("[vault] enabled with no server_url is refused; disabled it may be partial", () => {
  assertEquals(
    refusal(`[vault]\nenabled = true\nemail = "a@b.invalid"\n`).message,
    "forge.toml at /etc/forge.toml is invalid at line 1, column 1 in `vault.server_url`: " +
      "[vault] is enabled but names no server_url",
  );
  assertMatch(refusal(`[vault]\nenabled = true\nserver_url = ""\n`).message, /no server_url/);
  loadConfigText(`[vault]\nenabled = false\nemail = "a@b.invalid"\n`, "/c/forge.toml", areas);
});

// As in the original forge's forge.toml: a project's paths take `~/` as the home, env_file
// among them.
Deno.test("a project's env_file expands ~/ like its path", () => {
  const text = `[[orgs]]\nname = "Acme"\n[[orgs.projects]]\nname = "proj"\npath = "~/p"\n` +
    `env_file = "~/p/.env"\n`;
  const { config } = loadConfigText(text, "/c/forge.toml", areas);
  const home = Deno.env.get("HOME") ?? "";
  const p = config.orgs[0].projects[0];
  assertEquals([p.path, p.env_file], [`${home}/p`, `${home}/p/.env`]);
});
