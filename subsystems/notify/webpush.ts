// @deno-types="@types/web-push"
import webpush from "web-push";
import type { Channel } from "./channels.ts";
import { hostOf, post, SendFailure } from "./http.ts";
import { payloadOf, type Push } from "./push.ts";
import type { StoredSubscription, WebPushStore } from "./webpush_store.ts";

/** How long a push service keeps an undelivered push: an ask a day old is still an ask. */
const TTL_SECONDS = 24 * 3600;
const URGENCY = { high: "high", default: "normal", low: "low" } as const;

/**
 * Web Push to each subscribed browser: the payload (protocol/notify.ts NotifyPushPayload)
 * encrypted to the subscription's keys (RFC 8291, aes128gcm) and signed with forge's VAPID key
 * (RFC 8292), both by the `web-push` package; the request is sent here so the sender's
 * deadline and words apply. A push service answering 404 or 410 says the subscription is gone:
 * it is dropped and never retried.
 */
export function webPushChannel(
  store: WebPushStore | null,
  live: () => { enabled: boolean; subject: string | null },
  dropped: (sub: StoredSubscription, status: number) => void,
): Channel {
  const subject = () => live().subject;
  return {
    name: "webpush",
    off: () =>
      store === null
        ? live().enabled
          ? "[notify.webpush] enabled takes effect when forge restarts"
          : "[notify.webpush] enabled is false"
        : !subject()
        ? "no [notify.webpush] subject (a mailto: or https: contact) in forge.toml"
        : store.keys === null
        ? store.problem
        : null,
    note: () =>
      store?.problem ??
        (store && store.subscriptions.length === 0 ? "no browser has subscribed yet" : null),
    targets: () =>
      (store?.subscriptions ?? []).map((sub) => ({
        label: hostOf(sub.endpoint),
        async send(push: Push, signal: AbortSignal) {
          let details: webpush.RequestDetails;
          try {
            details = webpush.generateRequestDetails(sub, JSON.stringify(payloadOf(push)), {
              vapidDetails: {
                subject: subject()!,
                publicKey: store!.keys!.publicKey,
                privateKey: store!.keys!.privateKey,
              },
              TTL: TTL_SECONDS,
              urgency: URGENCY[push.priority],
            });
          } catch (err) {
            // web-push refuses a subject or keys it cannot use: said in forge's words.
            throw new SendFailure(`Web Push could not be prepared: ${vapidWords(err)}`, true);
          }
          const who = `the push service at ${hostOf(sub.endpoint)}`;
          try {
            const res = await post(who, sub.endpoint, {
              headers: Object.fromEntries(
                Object.entries(details.headers).map(([k, v]) => [k, String(v)]),
              ),
              body: new Uint8Array(details.body as Uint8Array),
            }, signal);
            await res.body?.cancel();
          } catch (err) {
            const status = err instanceof SendFailure ? err.status : null;
            if (status !== 404 && status !== 410) throw err;
            dropped(sub, status);
            throw new SendFailure(
              `${who} says this browser's subscription is gone (HTTP ${status}); forge dropped it`,
              true,
              status,
              true,
            );
          }
        },
      })),
  };
}

function vapidWords(err: unknown): string {
  const text = String((err as Error)?.message ?? "");
  if (/subject/i.test(text)) return "[notify.webpush] subject must be a mailto: or https: URL";
  if (/p256dh|auth/i.test(text)) return "the browser's subscription keys are not usable";
  return "the VAPID keys or the subscription were refused";
}
