import { type AreaSpec, key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";

/** The kinds `[notify] kinds` may name. */
export const NOTIFY_KINDS = ["ask", "failed", "finished", "auth"] as const;

/**
 * The push services' hosts a browser's subscription may name when `[notify.webpush] push_hosts`
 * is unset: Chrome and Android's, Firefox's and Safari's. Deno's `--allow-net` is fixed at
 * launch and takes no wildcard, so a service on any other host (Edge's WNS hosts vary by region)
 * is added by name. docs/notify.md "Permissions".
 */
export const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "web.push.apple.com",
];

const kindsCheck = (v: unknown) =>
  Array.isArray(v) && v.some((k) => !(NOTIFY_KINDS as readonly unknown[]).includes(k))
    ? `must list only ${NOTIFY_KINDS.join(", ")}`
    : null;

/** `[notify]`, `[notify.ntfy]`, `[notify.gotify]` and `[notify.webpush]`. docs/notify.md. */
export const NOTIFY_AREA: AreaSpec = {
  id: "notify",
  name: "notify",
  note: "pushes to the person when a seat needs them: ntfy, Gotify and Web Push",
  keys: [
    key.bool("notify.enabled", false, "restart", "send pushes at all"),
    {
      ...key.list(
        "notify.kinds",
        [...NOTIFY_KINDS],
        "live",
        "which needs push: ask, failed, finished, auth",
      ),
      check: kindsCheck,
    },
    key.number(
      "notify.finished_after_secs",
      120,
      "live",
      "a finished turn pushes only when it ran at least this long",
      [0, 86400],
    ),
    key.number("notify.coalesce_secs", 30, "live", "at most one push per seat this often", [
      0,
      3600,
    ]),
    key.number("notify.retry_minutes", 10, "live", "a failed push is retried this long", [
      0,
      1440,
    ]),
    key.string(
      "notify.client_url",
      null,
      "live",
      "where a tap lands; the seat's path (#/seat/<org>/<project>/<label>) is appended",
    ),
    key.string("notify.ntfy.url", null, "restart", "the ntfy server (network is granted to it)"),
    key.string("notify.ntfy.topic", null, "live", "the topic pushes are published to"),
    key.string("notify.ntfy.token", null, "live", "an access token, sent as a bearer; optional"),
    key.string(
      "notify.gotify.url",
      null,
      "restart",
      "the Gotify server (network is granted to it)",
    ),
    key.string(
      "notify.gotify.app_token",
      null,
      "live",
      "an application token (not the connector's client token)",
    ),
    key.bool("notify.webpush.enabled", false, "restart", "push to subscribed browsers (VAPID)"),
    key.string(
      "notify.webpush.subject",
      null,
      "live",
      "the VAPID contact: a mailto: or https: URL the push services may write to",
    ),
    key.list(
      "notify.webpush.push_hosts",
      null,
      "restart",
      "push service hosts a subscription may name (network is granted to them); unset: " +
        DEFAULT_PUSH_HOSTS.join(", "),
    ),
  ],
};

/**
 * The notify subsystem: a push to the person when a seat needs them, through their own ntfy,
 * Gotify or Web Push; never while an answering connection shows the seat. forge's extension
 * beyond v29 (protocol/notify.ts).
 */
export const notifyManifest = defineSubsystem({
  id: "notify",
  note: "pushes when a seat needs its person: ntfy, Gotify, Web Push",
  switch: "notify.enabled",
  area: NOTIFY_AREA,
  verbs: [],
  commands: ["notify_subscribe", "notify_unsubscribe", "notify_test"],
  subjects: [],
  binary: [],
  load: () => import("./mod.ts"),
});
