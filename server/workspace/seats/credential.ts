import { isJsonObject } from "../claude/mod.ts";

/**
 * What a CLI's `initialize` answer says of its credential: `none` (every turn it runs ends
 * "Not logged in · Please run /login"), `named` (it holds one), or `unknown` (it says nothing
 * forge can judge).
 *
 * `none`: its `account` names no token source (`tokenSource` is `"none"`) and no API key source
 * (`apiKeySource` absent or `"none"`), on Anthropic's own API. A CLI with ANTHROPIC_API_KEY names
 * that key; one behind forge's gateway names the ANTHROPIC_AUTH_TOKEN the gateway stamps, or its
 * config dir's login (an OAuth login names its subscription and no source): those are `named`. A
 * cloud provider's CLI signs in with that cloud's own credentials, which the answer does not
 * name, and an answer with no `account` (an older CLI) says nothing: both are `unknown`.
 */
export function credentialVerdict(account: unknown): "none" | "named" | "unknown" {
  if (!isJsonObject(account)) return "unknown";
  const provider = account.apiProvider;
  if (provider !== undefined && provider !== "firstParty") return "unknown";
  const none = (source: unknown) => source === undefined || source === "none";
  return account.tokenSource === "none" && none(account.apiKeySource) ? "none" : "named";
}

/** Whether a CLI's `initialize` answer says it holds no credential (`credentialVerdict`). */
export function reportsNoCredential(account: unknown): boolean {
  return credentialVerdict(account) === "none";
}
