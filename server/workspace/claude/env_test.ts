// The child environment's layers and reserved variables, as the original forge's launch sets them.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { buildChildEnv, MODEL_SLOT_VARS } from "./env.ts";

const base = { configDir: "/cfg/acct", cwd: "/srv/proj" };

Deno.test("buildChildEnv: strips CLAUDECODE and CLAUDE_CODE_ENTRYPOINT, sets config dir, PWD, offline", () => {
  const { env, warnings } = buildChildEnv({
    ...base,
    inherited: {
      PATH: "/bin",
      CLAUDECODE: "1",
      CLAUDE_CODE_ENTRYPOINT: "cli",
      PWD: "/elsewhere",
      KEEP: "k",
    },
  });
  deepStrictEqual(env, {
    PATH: "/bin",
    KEEP: "k",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: "1",
    CLAUDE_CONFIG_DIR: "/cfg/acct",
    PWD: "/srv/proj",
  });
  deepStrictEqual(warnings, []);
});

Deno.test("buildChildEnv: [env] < account < project, narrowest wins; layers may set stripped vars", () => {
  const { env } = buildChildEnv({
    ...base,
    inherited: { A: "inherited", B: "inherited" },
    globalEnv: { A: "global", B: "global", C: "global", CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
    accountEnv: { B: "account", C: "account" },
    projectEnv: { C: "project", DISABLE_TELEMETRY: "0" },
  });
  deepStrictEqual([env.A, env.B, env.C], ["global", "account", "project"]);
  strictEqual(env.CLAUDE_CODE_ENTRYPOINT, "sdk-ts");
  strictEqual(env.DISABLE_TELEMETRY, "0", "a layer may turn an offline switch back off");
});

Deno.test("buildChildEnv: reserved variables refused with a warning, model slots, overrides", () => {
  const { env, warnings } = buildChildEnv({
    ...base,
    inherited: { DROP: "x", KEEP: "y" },
    accountEnv: { CLAUDE_CONFIG_DIR: "/elsewhere" },
    model: "claude-sonnet-4-5",
    overrides: { DROP: "", NEW: "n", CLAUDE_CODE_SUBAGENT_MODEL: "claude-haiku-4-5", PWD: "/x" },
    offline: false,
  });
  strictEqual(env.CLAUDE_CONFIG_DIR, "/cfg/acct");
  strictEqual(env.PWD, "/srv/proj");
  deepStrictEqual(warnings, [
    "account env: CLAUDE_CONFIG_DIR is set by forge and was ignored",
    "env_overrides: PWD is set by forge and was ignored",
  ]);
  for (const name of MODEL_SLOT_VARS.filter((n) => n !== "CLAUDE_CODE_SUBAGENT_MODEL")) {
    strictEqual(env[name], "claude-sonnet-4-5", name);
  }
  strictEqual(
    env.CLAUDE_CODE_SUBAGENT_MODEL,
    "claude-haiku-4-5",
    "an override beats the model slot",
  );
  deepStrictEqual(["DROP" in env, env.NEW, env.KEEP, "DISABLE_TELEMETRY" in env], [
    false,
    "n",
    "y",
    false,
  ]);
});

// spec: home > accounts: through the gateway no credential variable reaches the CLI.
Deno.test("buildChildEnv: the gateway's stamp owns the base URL and every credential variable", () => {
  const { env, warnings } = buildChildEnv({
    ...base,
    inherited: { ANTHROPIC_API_KEY: "sk-inherited", CLAUDE_CODE_OAUTH_TOKEN: "oat" },
    globalEnv: { ANTHROPIC_BASE_URL: "http://direct" },
    accountEnv: { ANTHROPIC_AUTH_TOKEN: "sk-account" },
    gateway: { baseUrl: "http://127.0.0.1:8787/seat/abc", placeholder: "forge-gateway" },
  });
  strictEqual(env.ANTHROPIC_BASE_URL, "http://127.0.0.1:8787/seat/abc");
  strictEqual(env.ANTHROPIC_AUTH_TOKEN, "forge-gateway");
  strictEqual(env.ANTHROPIC_API_KEY, undefined);
  strictEqual(env.CLAUDE_CODE_OAUTH_TOKEN, undefined);
  deepStrictEqual(warnings, [
    "env: ANTHROPIC_BASE_URL is the gateway's and was ignored",
    "account env: ANTHROPIC_AUTH_TOKEN is the gateway's and was ignored",
  ]);
  // A launch's env_overrides come after the stamp and may neither replace nor remove it.
  const overridden = buildChildEnv({
    ...base,
    inherited: {},
    overrides: { ANTHROPIC_BASE_URL: "http://direct", ANTHROPIC_AUTH_TOKEN: "", OTHER: "o" },
    gateway: { baseUrl: "http://127.0.0.1:8787/seat/abc", placeholder: "forge-gateway" },
  });
  strictEqual(overridden.env.ANTHROPIC_BASE_URL, "http://127.0.0.1:8787/seat/abc");
  strictEqual(overridden.env.ANTHROPIC_AUTH_TOKEN, "forge-gateway");
  strictEqual(overridden.env.OTHER, "o");
  deepStrictEqual(overridden.warnings, [
    "env_overrides: ANTHROPIC_BASE_URL is the gateway's and was ignored",
    "env_overrides: ANTHROPIC_AUTH_TOKEN is the gateway's and was ignored",
  ]);
  // A config_dir account: no placeholder, so the CLI's own login in its config dir answers.
  const login = buildChildEnv({
    ...base,
    inherited: {},
    gateway: { baseUrl: "http://127.0.0.1:8787/seat/abc", placeholder: null },
  }).env;
  strictEqual(login.ANTHROPIC_AUTH_TOKEN, undefined);
  strictEqual(login.ANTHROPIC_BASE_URL, "http://127.0.0.1:8787/seat/abc");
});
