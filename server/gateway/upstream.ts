import { headerValueFault } from "../config/header_value.ts";
import type { AccountConfig } from "../config/types.ts";

/** The upstream of an account that names no `base_url`: the Messages API itself. */
export const DEFAULT_UPSTREAM = "https://api.anthropic.com";

/** An account's upstream base URL, without a trailing slash. */
export function upstreamOf(a: AccountConfig): string {
  return (a.base_url?.trim() || DEFAULT_UPSTREAM).replace(/\/+$/, "");
}

/**
 * An account's upstream as forge's words name it (a probe's reason, a notice, a 502): without the
 * user and password a base URL may carry, which are credentials too.
 */
export function upstreamName(a: AccountConfig): string {
  const url = URL.parse(upstreamOf(a));
  if (url === null || (url.username === "" && url.password === "")) return upstreamOf(a);
  url.username = "";
  url.password = "";
  return url.href.replace(/\/+$/, "");
}

/**
 * The headers that carry a `token` account's credential: an Anthropic API key rides `x-api-key`;
 * an Anthropic OAuth token (`sk-ant-oat...`) and every other provider's token ride
 * `Authorization: Bearer` (the OAuth one with its beta). Empty for a `config_dir` account.
 */
export function credentialHeaders(a: AccountConfig): Record<string, string> {
  const token = a.token?.trim();
  if (!token) return {};
  if (a.provider === "anthropic" && !token.startsWith("sk-ant-oat")) return { "x-api-key": token };
  const out: Record<string, string> = { authorization: `Bearer ${token}` };
  if (token.startsWith("sk-ant-oat")) out["anthropic-beta"] = "oauth-2025-04-20";
  return out;
}

/**
 * Why an account's token cannot be sent as its credential header, naming the account and never
 * the token; null when it can (or the account has none). The loader refuses such a token, so this
 * holds for a config built some other way: no request is tried with it, since the engine's error
 * for a header it cannot carry quotes the value whole.
 */
export function credentialFault(a: AccountConfig): string | null {
  const fault = a.token ? headerValueFault(a.token) : null;
  return fault === null ? null : `account ${a.display_name}'s token ${fault} (forge.toml)`;
}

/** Connection-level headers a proxy never forwards (RFC 9110 §7.6.1), plus the ones the next
 * hop recomputes. */
const HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  // Asked for identity bodies, so the bytes the upstream sends are the bytes the CLI gets.
  "accept-encoding",
]);

/**
 * The request headers that go upstream: the CLI's own (betas, version, session id - they are the
 * request's entitlements) without the hop-by-hop ones; for a `token` account the CLI's
 * placeholder credential is replaced by the account's own, for a `config_dir` account the CLI's
 * authorization goes through unchanged.
 */
export function outboundHeaders(incoming: Headers, a: AccountConfig): Headers {
  const out = new Headers();
  const creds = credentialHeaders(a);
  const replacing = Object.keys(creds).length > 0;
  incoming.forEach((value, name) => {
    if (HOP.has(name)) return;
    if (replacing && (name === "authorization" || name === "x-api-key")) return;
    out.set(name, value);
  });
  for (const [name, value] of Object.entries(creds)) {
    if (name === "anthropic-beta" && out.has(name)) {
      const betas = out.get(name)!.split(",").map((s) => s.trim());
      if (!betas.includes(value)) out.set(name, [...betas, value].join(","));
    } else {
      out.set(name, value);
    }
  }
  return out;
}

/**
 * The response headers that go back to the CLI: all of the upstream's but the hop-by-hop ones,
 * and `content-encoding` (fetch hands the body over decoded, should an upstream compress anyway).
 */
export function inboundHeaders(upstream: Headers): Headers {
  const out = new Headers();
  upstream.forEach((value, name) => {
    if (!HOP.has(name) && name !== "content-encoding") out.set(name, value);
  });
  return out;
}
