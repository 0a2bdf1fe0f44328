import { isJsonObject } from "../claude/mod.ts";

/**
 * Whether a CLI's `initialize` answer says it holds no credential, so every turn it runs ends
 * "Not logged in · Please run /login": its `account` names no token source (`tokenSource` is
 * `"none"`) and no API key source (`apiKeySource` absent or `"none"`), on Anthropic's own API.
 * A CLI with ANTHROPIC_API_KEY names that key; one behind forge's gateway names the
 * ANTHROPIC_AUTH_TOKEN the gateway stamps, or its config dir's login. A cloud provider's CLI signs
 * in with that cloud's own credentials, which the answer does not name, and an answer with no
 * `account` (an older CLI) says nothing: neither is judged logged out.
 */
export function reportsNoCredential(account: unknown): boolean {
  if (!isJsonObject(account)) return false;
  const provider = account.apiProvider;
  if (provider !== undefined && provider !== "firstParty") return false;
  const none = (source: unknown) => source === undefined || source === "none";
  return account.tokenSource === "none" && none(account.apiKeySource);
}
