/**
 * The child environment for `claude`, as the original forge's launch sets it: the inherited
 * environment minus the variables that would make the child think it runs inside Claude Code, the
 * offline switches, the config layers (narrowest wins), the account's config dir, the model slots
 * and `PWD`.
 */

/** Inputs to {@link buildChildEnv}; every map is `NAME -> value`. */
export interface ChildEnvInput {
  /** The server's own environment (usually `Deno.env.toObject()`). */
  inherited: Record<string, string>;
  /** forge.toml `[env]`. */
  globalEnv?: Record<string, string>;
  /** The account's `env`. */
  accountEnv?: Record<string, string>;
  /** The project's `env` (narrowest layer). */
  projectEnv?: Record<string, string>;
  /** The account's config dir, written as `CLAUDE_CONFIG_DIR` (reserved: layers cannot move it). */
  configDir: string;
  /** The project model; when set, every model slot variable is set to it. */
  model?: string;
  /** The session's working directory, written as `PWD`. */
  cwd: string;
  /**
   * Per-spawn launch settings `env_overrides`: a present key replaces, `""` removes (through the
   * gateway, never one of its variables).
   */
  overrides?: Record<string, string>;
  /** Default true: telemetry and non-essential traffic off (layers may turn them back on). */
  offline?: boolean;
  /**
   * The account gateway's stamp (server/gateway/), applied after the layers: the CLI's base URL
   * is the gateway, and no credential variable survives - for a `token` account the gateway holds
   * the token and the CLI gets only `placeholder`; for a `config_dir` account (`placeholder`
   * null) the CLI's own login answers.
   */
  gateway?: { baseUrl: string; placeholder: string | null };
}

/** The environment to spawn with (`clearEnv: true`), and what was refused on the way. */
export interface ChildEnv {
  env: Record<string, string>;
  warnings: string[];
}

/** Stripped from the inherited environment only; a layer may set them again. */
export const STRIPPED_VARS = ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"] as const;

/** Keep the CLI off the network except for the Messages API (measured against the CLI: with these
 * set, the only connects are to the base URL; without them it resolves api.anthropic.com for
 * event logging and sends a title-generation side request). */
export const OFFLINE_VARS: Readonly<Record<string, string>> = {
  DISABLE_TELEMETRY: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
};

/**
 * Asked of every CLI forge starts, offline or not: with it the CLI writes a
 * `system/session_state_changed` frame (idle, running, requires_action) as its turn state moves,
 * and without it keeps that state to itself. Home hears that frame as fleet news (spec: What a
 * client receives > home's first arm), which is how a home row learns a turn began: without it a
 * page's rail read Idle for the whole of a turn the seat's own header drew as Running.
 */
export const SESSION_STATE_VARS: Readonly<Record<string, string>> = {
  CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: "1",
};

/** Set to the project model so helpers and subagents use it too (as the original forge does). */
export const MODEL_SLOT_VARS = [
  "ANTHROPIC_DEFAULT_HAIKU_MODEL",
  "ANTHROPIC_DEFAULT_OPUS_MODEL",
  "ANTHROPIC_DEFAULT_SONNET_MODEL",
  "ANTHROPIC_SMALL_FAST_MODEL",
  "CLAUDE_CODE_SUBAGENT_MODEL",
] as const;

const RESERVED = new Set(["CLAUDE_CONFIG_DIR", "PWD"]);

/** The variables that carry a credential or an API base; the gateway's stamp owns them. */
export const GATEWAY_VARS = [
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
] as const;

/** Builds the child environment. Pure: reads nothing but its input. */
export function buildChildEnv(input: ChildEnvInput): ChildEnv {
  const env: Record<string, string> = { ...input.inherited };
  const warnings: string[] = [];
  for (const name of STRIPPED_VARS) delete env[name];
  if (input.offline ?? true) Object.assign(env, OFFLINE_VARS);
  Object.assign(env, SESSION_STATE_VARS);
  const layers: Array<[string, Record<string, string> | undefined]> = [
    ["env", input.globalEnv],
    ["account env", input.accountEnv],
    ["project env", input.projectEnv],
  ];
  for (const [layer, vars] of layers) {
    for (const [name, value] of Object.entries(vars ?? {})) {
      if (RESERVED.has(name)) {
        warnings.push(`${layer}: ${name} is set by forge and was ignored`);
        continue;
      }
      env[name] = value;
    }
  }
  env.CLAUDE_CONFIG_DIR = input.configDir;
  if (input.gateway) {
    for (const [layer, vars] of layers) {
      for (const name of GATEWAY_VARS) {
        if (vars && name in vars) {
          warnings.push(`${layer}: ${name} is the gateway's and was ignored`);
        }
      }
    }
    for (const name of GATEWAY_VARS) delete env[name];
    env.ANTHROPIC_BASE_URL = input.gateway.baseUrl;
    if (input.gateway.placeholder) env.ANTHROPIC_AUTH_TOKEN = input.gateway.placeholder;
  }
  if (input.model) { for (const name of MODEL_SLOT_VARS) env[name] = input.model; }
  for (const [name, value] of Object.entries(input.overrides ?? {})) {
    if (RESERVED.has(name)) {
      warnings.push(`env_overrides: ${name} is set by forge and was ignored`);
    } else if (input.gateway && (GATEWAY_VARS as readonly string[]).includes(name)) {
      // A launch's overrides come after the stamp: they may not route around the gateway.
      warnings.push(`env_overrides: ${name} is the gateway's and was ignored`);
    } else if (value === "") {
      delete env[name];
    } else {
      env[name] = value;
    }
  }
  env.PWD = input.cwd;
  return { env, warnings };
}
