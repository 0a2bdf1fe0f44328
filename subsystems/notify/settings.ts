import type { NotifyKind } from "../../protocol/mod.ts";
import type { ForgeConfig } from "../../server/config/types.ts";
import { DEFAULT_PUSH_HOSTS } from "./manifest.ts";

/** `[notify]` as the subsystem reads it, defaults applied (the catalogue's, manifest.ts). */
export interface NotifySettings {
  kinds: NotifyKind[];
  finishedAfterMs: number;
  coalesceMs: number;
  retryMs: number;
  clientUrl: string | null;
  ntfy: { url: string | null; topic: string | null; token: string | null };
  gotify: { url: string | null; appToken: string | null };
  webpush: { enabled: boolean; subject: string | null; pushHosts: string[] };
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

export function notifySettings(config: ForgeConfig): NotifySettings {
  const a = config.areas.notify ?? {};
  const hosts = Array.isArray(a["webpush.push_hosts"])
    ? (a["webpush.push_hosts"] as string[])
    : DEFAULT_PUSH_HOSTS;
  return {
    kinds: (Array.isArray(a.kinds) ? a.kinds : []) as NotifyKind[],
    finishedAfterMs: Number(a.finished_after_secs ?? 120) * 1000,
    coalesceMs: Number(a.coalesce_secs ?? 30) * 1000,
    retryMs: Number(a.retry_minutes ?? 10) * 60_000,
    clientUrl: str(a.client_url),
    ntfy: { url: str(a["ntfy.url"]), topic: str(a["ntfy.topic"]), token: str(a["ntfy.token"]) },
    gotify: { url: str(a["gotify.url"]), appToken: str(a["gotify.app_token"]) },
    webpush: {
      enabled: a["webpush.enabled"] === true,
      subject: str(a["webpush.subject"]),
      pushHosts: hosts.map(hostPort),
    },
  };
}

/** A `push_hosts` entry as `host:port` (a bare host is HTTPS's 443), as the launcher grants it. */
export function hostPort(entry: string): string {
  return /:\d+$/.test(entry) && !entry.endsWith("]") ? entry : `${entry}:443`;
}

/**
 * The hosts and ports `[notify]` adds to the launcher's `--allow-net`: the ntfy and Gotify
 * servers, and with Web Push on, the push services' hosts. Nothing when pushes are off.
 */
export function notifyNetHosts(config: ForgeConfig): string[] {
  const s = notifySettings(config);
  if ((config.areas.notify ?? {}).enabled !== true) return [];
  const urls = [s.ntfy.url, s.gotify.url].flatMap((u) => {
    if (u === null) return [];
    try {
      const url = new URL(u);
      return [`${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`];
    } catch {
      return []; // not a URL: the loader refused it already, no host to allow
    }
  });
  return [...urls, ...(s.webpush.enabled ? s.webpush.pushHosts : [])];
}
