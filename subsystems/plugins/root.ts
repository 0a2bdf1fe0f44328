import type { Host } from "../../server/subsystem.ts";
import { resolvesOnPath } from "./files.ts";

type Env = (name: string) => string | undefined;
type ForgeConfig = ReturnType<Host["config"]>;

/**
 * The config dir whose plugins root forge scans and whose CLI it drives: the first account that
 * names a `config_dir`, else `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude` (the CLI's own order);
 * null when none resolves, which the subject reports as `snapshot: null`. spec: extensions.
 */
export function pluginsConfigDir(config: ForgeConfig, env: Env): string | null {
  const account = config.accounts.find((a) => a.config_dir);
  if (account?.config_dir) return account.config_dir;
  const configured = env("CLAUDE_CONFIG_DIR");
  if (configured) return configured;
  const home = env("HOME");
  return home ? `${home}/.claude` : null;
}

/** The claude binary, in the seats' order: `[claude] path`, `$FORGE_CLAUDE_BIN`, then PATH. */
export function claudeBinary(config: ForgeConfig, env: Env): string | null {
  if (config.claude.path) return config.claude.path;
  const pinned = env("FORGE_CLAUDE_BIN");
  if (pinned && resolvesOnPath(pinned, "")) return pinned;
  for (const dir of (env("PATH") ?? "").split(":")) {
    if (dir && resolvesOnPath(`${dir}/claude`, "")) return `${dir}/claude`;
  }
  return null;
}
