import type { NotifyChannel } from "../../protocol/mod.ts";
import { hostOf, post } from "./http.ts";
import type { Push } from "./push.ts";

/** One place a push goes: a server, or one browser's subscription. */
export interface Target {
  /** What the log and a reason name it by: `host:port`, never a topic or an endpoint path. */
  label: string;
  /** Sends the push; throws a SendFailure (http.ts) in words when it was not taken. */
  send(push: Push, signal: AbortSignal): Promise<void>;
}

/** A channel: whether it is configured, and where a push goes through it now. */
export interface Channel {
  readonly name: NotifyChannel;
  /** Why it cannot send (not configured), or null when it can. */
  off(): string | null;
  targets(): Target[];
  /** A word for home beside `ok` (Web Push with no browser subscribed), or null. */
  note?(): string | null;
}

/**
 * Why a channel whose server was unset at boot is off: the file may have gained it since, and a
 * server's URL takes effect at a restart (the launcher grants the network to it then).
 */
function unset(key: string, now: string | null): string {
  return now ? `${key} takes effect when forge restarts` : `no ${key} in forge.toml`;
}

/** ntfy's priorities (1 min .. 5 max) and tags (emoji short codes its apps draw). */
const NTFY_PRIORITY = { high: 4, default: 3, low: 2 } as const;
const NTFY_TAGS: Record<Push["kind"], string> = {
  ask: "bell",
  auth: "key",
  failed: "warning",
  finished: "white_check_mark",
  test: "test_tube",
};

/**
 * ntfy: its JSON publish (`POST <url>/` with `{topic, title, message, priority, tags, click}`,
 * the form that carries any title's characters; the header form needs them Latin-1), the token
 * as a bearer. `url` is the one in force at boot (the launcher granted its host); the topic and
 * token are read at each send.
 */
export function ntfyChannel(
  url: string | null,
  live: () => { url: string | null; topic: string | null; token: string | null },
): Channel {
  return {
    name: "ntfy",
    off: () =>
      !url
        ? unset("[notify.ntfy] url", live().url)
        : !live().topic
        ? "no [notify.ntfy] topic in forge.toml"
        : null,
    targets: () => [{
      label: hostOf(url!),
      async send(push, signal) {
        const { topic, token } = live();
        const res = await post(`ntfy at ${hostOf(url!)}`, `${url!.replace(/\/+$/, "")}/`, {
          headers: {
            "content-type": "application/json",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({
            topic,
            title: push.title,
            message: push.body,
            priority: NTFY_PRIORITY[push.priority],
            tags: [NTFY_TAGS[push.kind], "forge"],
            ...(push.url ? { click: push.url } : {}),
          }),
        }, signal);
        await res.body?.cancel();
      },
    }],
  };
}

/** Gotify's priorities (0..10; its apps sound from 4 and pop up from 8). */
const GOTIFY_PRIORITY = { high: 8, default: 5, low: 3 } as const;

/**
 * Gotify: `POST <url>/message` with an application token in `X-Gotify-Key` (a header, so no log
 * of a URL holds it), the tap's URL in `extras` as its Android app reads it.
 */
export function gotifyChannel(
  url: string | null,
  live: () => { url: string | null; appToken: string | null },
): Channel {
  const token = () => live().appToken;
  return {
    name: "gotify",
    off: () =>
      !url
        ? unset("[notify.gotify] url", live().url)
        : !token()
        ? "no [notify.gotify] app_token in forge.toml"
        : null,
    targets: () => [{
      label: hostOf(url!),
      async send(push, signal) {
        const res = await post(`Gotify at ${hostOf(url!)}`, `${url!.replace(/\/+$/, "")}/message`, {
          headers: { "content-type": "application/json", "x-gotify-key": token()! },
          body: JSON.stringify({
            title: push.title,
            message: push.body,
            priority: GOTIFY_PRIORITY[push.priority],
            ...(push.url
              ? { extras: { "client::notification": { click: { url: push.url } } } }
              : {}),
          }),
        }, signal);
        await res.body?.cancel();
      },
    }],
  };
}
