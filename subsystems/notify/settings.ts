import type { NotifyKind } from "../../protocol/mod.ts";
import type { ForgeConfig } from "../../server/config/types.ts";
import { hostOf } from "./http.ts";
import { DEFAULT_PUSH_HOSTS } from "./push_hosts.ts";

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

/**
 * A `push_hosts` entry as `host:port`, lower case (a URL's host is), a bare host on HTTPS's 443:
 * what the launcher grants. A `*.` entry stays a wildcard, which Deno's `--allow-net` takes.
 */
export function hostPort(entry: string): string {
  const host = entry.toLowerCase();
  return /:\d+$/.test(host) && !host.endsWith("]") ? host : `${host}:443`;
}

/**
 * Whether the launcher's grant of `hosts` reaches `where` (`host:port`): an exact entry, or a
 * `*.domain` one on the same port, which Deno lets reach the domain and every name under it.
 */
export function pushHostGranted(hosts: readonly string[], where: string): boolean {
  const at = where.lastIndexOf(":");
  const [name, port] = [where.slice(0, at), where.slice(at)];
  return hosts.some((entry) => {
    if (!entry.startsWith("*.")) return entry === where;
    const domain = entry.slice(2, entry.lastIndexOf(":"));
    return entry.endsWith(port) && (name === domain || name.endsWith(`.${domain}`));
  });
}

/**
 * The hosts and ports `[notify]` adds to the launcher's `--allow-net`: the ntfy and Gotify
 * servers, and with Web Push on, the push services' hosts. Nothing when pushes are off.
 */
export function notifyNetHosts(config: ForgeConfig): string[] {
  const s = notifySettings(config);
  if ((config.areas.notify ?? {}).enabled !== true) return [];
  const servers = [s.ntfy.url, s.gotify.url].flatMap((u) => (u === null ? [] : [hostOf(u)]));
  return [...servers, ...(s.webpush.enabled ? s.webpush.pushHosts : [])];
}
