import type { LaunchSettings } from "../../../protocol/mod.ts";
import { readWords } from "../../state/words.ts";
import type { AccountConfig, ForgeConfig, ProjectConfig } from "../../config/types.ts";
import {
  buildArgv,
  buildChildEnv,
  defaultClaudeDir,
  type PermissionMode,
  transcriptPath,
} from "../claude/mod.ts";
import { findClaude } from "../cli.ts";
import type { GatewayLaunch } from "../../gateway/gateway.ts";

/** What a `token` account's CLI holds instead of the token: a name, not a credential. */
export const GATEWAY_PLACEHOLDER = "forge-gateway";

/** Everything one `claude` launch needs, decided before anything is spawned. */
export interface LaunchPlan {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The account the seat binds (the gateway's pick, else its org's first), null when none. */
  account: AccountConfig | null;
  model: string | null;
  permissionMode: PermissionMode;
  effort: string | null;
  /** `CLAUDE_CODE_TMPDIR` as the child sees it (else TMPDIR, else /tmp): where task output lands. */
  tmpBase: string;
  /** What forge refused or ignored: a variable a layer tried to set (CLAUDE_CONFIG_DIR, PWD),
   * a relative env_file. */
  warnings: string[];
}

/** Which occupant the launch starts: a fresh session under a known id, or a resumed one. */
export type Occupancy = { sessionId: string } | { resume: string };

export interface LaunchInput {
  config: ForgeConfig;
  project: ProjectConfig;
  cwd: string;
  occupancy: Occupancy;
  launch?: LaunchSettings;
  /** The server's own environment; default `Deno.env.toObject()`. */
  inherited?: Record<string, string>;
  /** The account gateway's binding for this seat; absent or null: the CLI talks directly. */
  gateway?: GatewayLaunch | null;
  /** forge's own flags (its MCP server), rendered before the launch's `extra_args`. */
  forgeArgs?: ReadonlyArray<readonly [string, string | null]>;
}

/** The config's permission-mode spellings (the original's) that the CLI does not take itself. */
const MODE_ALIASES: Record<string, PermissionMode> = {
  ask: "default",
  accept_edits: "acceptEdits",
  dont_ask: "dontAsk",
  bypass_permissions: "bypassPermissions",
};
const MODES = new Set(["default", "acceptEdits", "plan", "dontAsk", "auto", "bypassPermissions"]);

/** A config or launch-settings permission mode as the CLI spells it; throws naming a bad one. */
export function cliMode(mode: string): PermissionMode {
  if (MODES.has(mode)) return mode as PermissionMode;
  const alias = MODE_ALIASES[mode];
  if (alias) return alias;
  throw new Error(`permission mode \`${mode}\` is not one the CLI takes`);
}

/**
 * Plans a seat's launch (the original's argv and environment). The binary is `[claude] path`, else
 * `$FORGE_CLAUDE_BIN`, else PATH's. The account is the gateway's binding (else the project's org's
 * first); its `config_dir` (else `$CLAUDE_CONFIG_DIR`, else `~/.claude`) is the child's
 * CLAUDE_CONFIG_DIR. Through the gateway the CLI's base URL is the gateway's seat route and no
 * credential variable reaches it; without one, `base_url` and `token` are ANTHROPIC_BASE_URL and
 * ANTHROPIC_API_KEY under the account's own `env`. Layers: `[env]` <
 * account < project (`env_file`, then the inline `env`) < the launch's `env_overrides`. Model,
 * permission mode and effort come from the launch settings (`model`,
 * `permissions.defaultMode`, `effortLevel`), else the project. Throws a sentence naming what is
 * missing: no binary, an unreadable env_file, a mode the CLI does not take.
 */
export function planLaunch(input: LaunchInput): LaunchPlan {
  const { config, project, launch } = input;
  const bin = findClaude(config);
  if (!bin) {
    throw new Error(
      "no claude binary: [claude] path is unset, $FORGE_CLAUDE_BIN names none and PATH has no claude",
    );
  }
  const inherited = input.inherited ?? Deno.env.toObject();
  const org = config.orgs.find((o) => o.name === project.org);
  const gateway = input.gateway ?? null;
  const account = gateway?.account ??
    config.accounts.find((a) => a.display_name === org?.accounts[0]) ?? null;
  const configDir = account?.config_dir ?? defaultClaudeDir(inherited);
  const accountEnv: Record<string, string> = {};
  // Through the gateway the account's URL and token stay with forge. spec: home > accounts.
  if (account?.base_url && !gateway) accountEnv.ANTHROPIC_BASE_URL = account.base_url;
  if (account?.token && !gateway) accountEnv.ANTHROPIC_API_KEY = account.token;
  Object.assign(accountEnv, account?.env ?? {});
  const projectEnv = { ...readEnvFile(project.env_file), ...project.env };
  const settings = launch?.settings ?? {};
  const model = stringAt(settings, ["model"]) ?? project.model;
  const permissionMode = cliMode(
    stringAt(settings, ["permissions", "defaultMode"]) ?? project.permission_mode,
  );
  const effort = stringAt(settings, ["effortLevel"]) ?? project.effort;
  const { env, warnings: refused } = buildChildEnv({
    inherited,
    globalEnv: config.env,
    accountEnv,
    projectEnv,
    configDir,
    model: model ?? undefined,
    cwd: input.cwd,
    overrides: launch?.env_overrides,
    gateway: gateway
      ? {
        baseUrl: gateway.baseUrl,
        placeholder: gateway.kind === "token" ? GATEWAY_PLACEHOLDER : null,
      }
      : undefined,
  });
  const args = buildArgv({
    model: model ?? undefined,
    permissionMode,
    effort: effort ?? undefined,
    extraArgs: [
      ...withCharter(input.forgeArgs ?? [], launch?.charter),
      ...(launch?.extra_args ?? []),
    ],
    ...("resume" in input.occupancy
      ? { resume: input.occupancy.resume }
      : { sessionId: input.occupancy.sessionId }),
  });
  return {
    bin,
    args,
    cwd: input.cwd,
    env,
    account,
    model,
    permissionMode,
    effort,
    tmpBase: env.CLAUDE_CODE_TMPDIR || env.TMPDIR || "/tmp",
    // The seat's log says an env_file was ignored rather than nothing.
    warnings: ignoredEnvFile(project.env_file)
      ? [`env_file ${project.env_file} is not an absolute path and was ignored`, ...refused]
      : refused,
  };
}

/**
 * Where the planned CLI writes `sessionId`'s transcript: under the child's `CLAUDE_CONFIG_DIR`,
 * in the folder named after its working directory as the CLI sees it (the real path).
 */
export async function transcriptOf(plan: LaunchPlan, sessionId: string): Promise<string | null> {
  const configDir = plan.env.CLAUDE_CONFIG_DIR;
  if (!configDir) return null;
  // The CLI names its folder by the real path; a path that will not resolve is named as given.
  const cwd = await Deno.realPath(plan.cwd).catch(() => plan.cwd);
  return transcriptPath(configDir, cwd, sessionId);
}

/** As in the original, a relative env_file is ignored (read as no file; the launch warns of it). */
function ignoredEnvFile(path: string | null): path is string {
  return path !== null && path !== "" && !path.startsWith("/");
}

/** `KEY=value` lines (`#` comments, blanks skipped); a relative path reads as none. */
export function readEnvFile(path: string | null): Record<string, string> {
  if (!path || ignoredEnvFile(path)) return {};
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    throw new Error(`env_file ${path} cannot be read: ${readWords(err)}`, { cause: err });
  }
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    const key = line.slice(0, eq).replace(/^export\s+/, "").trim();
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

/**
 * A launch's `charter` (a worker's) as its system-prompt addition: joined after forge's
 * own `append-system-prompt` section, or the flag itself when forge gave none (the CLI takes the
 * flag once).
 */
function withCharter(
  args: ReadonlyArray<readonly [string, string | null]>,
  charter: string | undefined,
): ReadonlyArray<readonly [string, string | null]> {
  if (!charter?.trim()) return args;
  const at = args.findIndex(([flag]) => flag === "append-system-prompt");
  if (at < 0) return [...args, ["append-system-prompt", charter]];
  return args.map((a, i) => (i === at ? [a[0], `${a[1] ?? ""}\n\n${charter}`] as const : a));
}

function stringAt(root: Record<string, unknown>, path: string[]): string | null {
  let node: unknown = root;
  for (const part of path) {
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  }
  return typeof node === "string" && node.length > 0 ? node : null;
}
