import { type AreaSpec, key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";
import { DEFAULT_PUSH_HOSTS } from "./push_hosts.ts";

/** The kinds `[notify] kinds` may name. */
export const NOTIFY_KINDS = ["ask", "failed", "finished", "auth"] as const;

const kindsCheck = (v: unknown) =>
  Array.isArray(v) && v.some((k) => !(NOTIFY_KINDS as readonly unknown[]).includes(k))
    ? `must list only ${NOTIFY_KINDS.join(", ")}`
    : null;

/** A server's or a tap's URL: http: or https:, as fetch and the launcher's grant read it. */
const httpUrl = (v: unknown) => {
  if (typeof v !== "string" || v === "") return null;
  const url = URL.parse(v);
  return url && (url.protocol === "http:" || url.protocol === "https:") && url.hostname
    ? null
    : `must be an http: or https: URL, not ${JSON.stringify(v)}`;
};

/** ntfy's own rule for a topic name; a server refuses any other. */
const topicCheck = (v: unknown) =>
  typeof v === "string" && v !== "" && !/^[-_A-Za-z0-9]{1,64}$/.test(v)
    ? "must be 1 to 64 letters, digits, - or _ (ntfy's topic names)"
    : null;

/** RFC 8292: the VAPID contact a push service may write to. */
const subjectCheck = (v: unknown) =>
  typeof v === "string" && v !== "" && !/^(mailto:|https:\/\/)\S+$/.test(v)
    ? `must be a mailto: or https: URL, not ${JSON.stringify(v)}`
    : null;

/** What `--allow-net` takes: a host (or `*.` a domain's names) and an optional port, no URL. */
const PUSH_HOST = /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;
const pushHostsCheck = (v: unknown) => {
  const bad = Array.isArray(v) ? v.find((h) => !PUSH_HOST.test(String(h))) : undefined;
  return bad === undefined ? null : `must list hosts such as fcm.googleapis.com, ` +
    `push.example.org:8443 or *.notify.windows.com, not ${JSON.stringify(bad)}`;
};

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
      "where a tap lands; the seat's path (#/seat/<org>/<project>/<label>) is appended, after the forge a #/@<host> names",
      { check: httpUrl },
    ),
    key.string("notify.ntfy.url", null, "restart", "the ntfy server (network is granted to it)", {
      check: httpUrl,
    }),
    key.string("notify.ntfy.topic", null, "live", "the topic pushes are published to", {
      check: topicCheck,
    }),
    key.secret("notify.ntfy.token", "live", "an access token, sent as a bearer; optional"),
    key.string(
      "notify.gotify.url",
      null,
      "restart",
      "the Gotify server (network is granted to it)",
      { check: httpUrl },
    ),
    key.secret(
      "notify.gotify.app_token",
      "live",
      "an application token (not the connector's client token)",
    ),
    key.bool("notify.webpush.enabled", false, "restart", "push to subscribed browsers (VAPID)"),
    key.string(
      "notify.webpush.subject",
      null,
      "live",
      "the VAPID contact: a mailto: or https: URL the push services may write to",
      { check: subjectCheck },
    ),
    {
      ...key.list(
        "notify.webpush.push_hosts",
        null,
        "restart",
        "push service hosts a subscription may name (network is granted to them; *.domain " +
          "takes its names); unset: " + DEFAULT_PUSH_HOSTS.join(", "),
      ),
      check: pushHostsCheck,
    },
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
