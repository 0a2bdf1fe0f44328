/** A config dir's OAuth login, without its tokens. spec: catalogue 2.3 `oauth_credentials_snapshot`. */
export type OauthFacts = {
  subscription_type: string | null;
  scopes: string[];
  expires_at: number | null;
};

/**
 * Reads the login the CLI keeps in `<configDir>/.credentials.json` (`claudeAiOauth`) and returns
 * only what a person may see of it: the subscription, the scopes and when the access token
 * expires. The tokens themselves are never read out. Null when the dir holds no OAuth login.
 */
export async function readOauthFacts(configDir: string): Promise<OauthFacts | null> {
  let raw: string;
  try {
    raw = await Deno.readTextFile(`${configDir}/.credentials.json`);
  } catch {
    return null;
  }
  try {
    const oauth = (JSON.parse(raw) as Record<string, unknown>)?.claudeAiOauth as
      | Record<string, unknown>
      | undefined;
    if (!oauth || typeof oauth !== "object") return null;
    return {
      subscription_type: typeof oauth.subscriptionType === "string" ? oauth.subscriptionType : null,
      scopes: Array.isArray(oauth.scopes) ? oauth.scopes.filter((s) => typeof s === "string") : [],
      expires_at: typeof oauth.expiresAt === "number" ? oauth.expiresAt : null,
    };
  } catch {
    return null;
  }
}
