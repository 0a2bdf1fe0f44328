import type { AccountUsage, RateLimitWindow } from "../../protocol/accounts.ts";

// An account's usage as its upstream reports it on every response: the unified windows an OAuth
// subscription answers with (`anthropic-ratelimit-unified-<window>-utilization|reset|status`) and
// the per-key limits an API key answers with (`anthropic-ratelimit-<kind>-limit|remaining|reset`).

const UNIFIED = /^anthropic-ratelimit-unified-(.+)-(utilization|reset|status)$/;
const KEYED =
  /^anthropic-ratelimit-(requests|tokens|input-tokens|output-tokens)-(limit|remaining|reset)$/;

/** A reset header as unix ms: unix seconds (unified) or an RFC 3339 instant (per-key). */
function instant(value: string): number | null {
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

function num(value: string): number | null {
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) ? n : null;
}

/** The snapshot a response's headers state, or null when they carry no rate-limit header. */
export function usageFrom(headers: Headers, now: number): AccountUsage | null {
  const windows = new Map<string, RateLimitWindow>();
  const win = (name: string) => {
    let w = windows.get(name);
    if (!w) {
      w = { name, utilization: null, limit: null, remaining: null, resets_at: null, status: null };
      windows.set(name, w);
    }
    return w;
  };
  let status: string | null = null;
  let seen = false;
  headers.forEach((value, name) => {
    if (name === "anthropic-ratelimit-unified-status") {
      status = value;
      seen = true;
      return;
    }
    const u = UNIFIED.exec(name);
    if (u && !["overage", "fallback"].some((p) => u[1].startsWith(p))) {
      seen = true;
      const w = win(u[1]);
      if (u[2] === "utilization") w.utilization = num(value);
      else if (u[2] === "reset") w.resets_at = instant(value);
      else w.status = value;
      return;
    }
    const k = KEYED.exec(name);
    if (k) {
      seen = true;
      const w = win(k[1].replace("-", "_"));
      if (k[2] === "limit") w.limit = num(value);
      else if (k[2] === "remaining") w.remaining = num(value);
      else w.resets_at = instant(value);
    }
  });
  if (!seen) return null;
  const list = [...windows.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { observed_at: now, status, windows: list };
}

/** A window is at its cap while it is used up and its reset is still ahead. */
export function windowAtCap(w: RateLimitWindow, now: number): boolean {
  const full = (w.utilization !== null && w.utilization >= 1) ||
    (w.remaining !== null && w.remaining <= 0) || w.status === "rejected";
  return full && w.resets_at !== null && w.resets_at > now;
}

/** Whether an account's cached usage says it is at a cap now. */
export function atCap(snapshot: AccountUsage | null, now: number): boolean {
  return snapshot !== null && snapshot.windows.some((w) => windowAtCap(w, now));
}

/**
 * When a rate-limited account can be used again, from the failing response: `retry-after`
 * (seconds), else `anthropic-ratelimit-unified-reset`, else the latest reset of a window at its
 * cap. Null when the response names no reset ahead of `now`.
 */
export function resetFrom(headers: Headers, now: number): number | null {
  const retry = headers.get("retry-after");
  if (retry !== null) {
    const secs = num(retry);
    const at = secs !== null ? now + secs * 1000 : Date.parse(retry);
    if (Number.isFinite(at) && at > now) return at;
  }
  const unified = headers.get("anthropic-ratelimit-unified-reset");
  const u = unified !== null ? instant(unified) : null;
  if (u !== null && u > now) return u;
  const capped = usageFrom(headers, now)?.windows.filter((w) => windowAtCap(w, now)) ?? [];
  const latest = Math.max(...capped.map((w) => w.resets_at ?? 0));
  return latest > now ? latest : null;
}
