import { z } from "zod";

// forge's own addition beyond protocol v29: the person is called by a push when a seat needs
// them, through services the person runs (an ntfy server, a Gotify server, Web Push to the
// installed web client). Every name here is an extension (protocol/beyond.ts lists them);
// no v29 frame changes. docs/notify.md says what each does.

/** The three channels a push can leave by. */
export const NotifyChannel = z.enum(["ntfy", "gotify", "webpush"]);
export type NotifyChannel = z.infer<typeof NotifyChannel>;

/**
 * One channel's state: `ok` (configured; its last send, if any, was answered), `failing` (its
 * last send was not, `why` says so in words) or `off` (not configured, `why` says what is
 * missing). `why` never holds a token, a topic or a push endpoint.
 */
export const NotifyChannelState = z.object({
  state: z.enum(["ok", "failing", "off"]),
  why: z.string().nullable(),
}).strict();
export type NotifyChannelState = z.infer<typeof NotifyChannelState>;

/**
 * home's `notify` row, and the whole of `notify_state_changed`: whether pushes are on, each
 * channel's state, the VAPID public key a browser subscribes with (null until Web Push is on;
 * the private half never leaves forge's state dir) and how many browsers are subscribed.
 */
export const HomeNotify = z.object({
  enabled: z.boolean(),
  channels: z.object({
    ntfy: NotifyChannelState,
    gotify: NotifyChannelState,
    webpush: NotifyChannelState,
  }).strict(),
  vapid_public_key: z.string().nullable(),
  subscriptions: z.number().int(),
}).strict();
export type HomeNotify = z.infer<typeof HomeNotify>;

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

/**
 * `notify_subscribe`: a browser's PushSubscription as `toJSON()` gives it (its other fields,
 * `expirationTime`, are ignored). Subscribing an endpoint again replaces its keys.
 */
export const NotifySubscribeFields = z.object({
  endpoint: z.url({ protocol: /^https?$/ }),
  keys: z.object({ p256dh: base64url, auth: base64url }).strict(),
}).strict();
export type NotifySubscribeFields = z.infer<typeof NotifySubscribeFields>;

/** `notify_unsubscribe`: forgets one endpoint. */
export const NotifyUnsubscribeFields = z.object({ endpoint: z.string() }).strict();

/** `notify_test` (reply_to required): sends one test push through a channel now. */
export const NotifyTestFields = z.object({ channel: NotifyChannel }).strict();

/** `notify_test`'s reply body: whether the channel took the push, and if not why, in words. */
export const NotifyTestReply = z.object({ ok: z.boolean(), why: z.string().nullable() }).strict();
export type NotifyTestReply = z.infer<typeof NotifyTestReply>;

/** Why a seat is calling its person: the `[notify] kinds` names. */
export const NotifyKind = z.enum(["ask", "failed", "finished", "auth"]);
export type NotifyKind = z.infer<typeof NotifyKind>;

/**
 * What a Web Push carries, encrypted to the subscription's keys (RFC 8291): what the web
 * client's service worker shows. `seat` is `<org>/<project>/<label>` (null on a test push),
 * `url` where a tap lands (null without `[notify] client_url`), `count` how many things wait.
 */
export const NotifyPushPayload = z.object({
  title: z.string(),
  body: z.string(),
  kind: z.union([NotifyKind, z.literal("test")]),
  seat: z.string().nullable(),
  count: z.number().int(),
  url: z.string().nullable(),
}).strict();
export type NotifyPushPayload = z.infer<typeof NotifyPushPayload>;

/** The keyless update home hears when a channel's state or the subscriptions move. */
export const NOTIFY_UPDATES = { notify_state_changed: HomeNotify } as const;

/** The wire names this file adds beyond v29, by where they appear. */
export const NOTIFY_EXTENSIONS = {
  commands: ["notify_subscribe", "notify_unsubscribe", "notify_test"],
  updates: ["notify_state_changed"],
  home: ["notify"],
} as const;
