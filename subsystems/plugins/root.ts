import type { Host } from "../../server/subsystem.ts";

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
