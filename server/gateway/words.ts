import { accountConfigDir } from "./login.ts";
import type { PoolAccount } from "./pool.ts";

// What the gateway tells a seat, in forge's own words.

/** Every account the seat may use is cooling or failed: its request goes out as it is. */
export function exhaustedText(org: string, account: string, soonest: number | null): string {
  return `every account of org ${org} is cooling or failed; this request goes to ${account} ` +
    `and gets its answer` +
    (soonest !== null ? ` (the first cools at ${new Date(soonest).toISOString()})` : "");
}

/** The seat moved: from which account to which, and why (`unusable`: the old one's state). */
export function movedText(from: string, to: string, unusable: string | null): string {
  const why = unusable !== null
    ? `${from} is ${unusable}`
    : `${from} is a fallback and ${to} can serve again`;
  return `forge moved this seat from account ${from} to ${to}: ${why}`;
}

/** `auth_required`'s description: whose credential was refused and what fixes it. */
export function refusedText(account: PoolAccount, claudeDir: string): string {
  const name = account.config.display_name;
  return `account ${name}'s upstream refused its credential (HTTP 401): ` +
    (account.kind === "token"
      ? "its token in forge.toml needs replacing"
      : `log in again with CLAUDE_CONFIG_DIR=${accountConfigDir(account.config, claudeDir)}`);
}
