import type { ForgeClient } from "../net/client.ts";
import { activated, pushWords, WORKER_URL } from "./shell.ts";

/** The scope of a forge's push registration: one per forge, since each has its own VAPID key. */
export function pushScope(host: string): string {
  return `/push/${encodeURIComponent(host)}/`;
}

/** base64url (home's `vapid_public_key`) to its bytes. */
function keyBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/**
 * One forge's Web Push subscription (docs/notify.md "Web Push"): subscribed through a service
 * worker registration of the forge's own (a browser ties a subscription to one VAPID key, and
 * each forge makes its own) with the key home carries, told to forge with `notify_subscribe` on
 * every connection, and made again when home's key is not the one it was made with. A browser
 * whose push service refuses leaves the page's own notifications working; `pushWords` says why.
 */
export class PushSubscriber {
  #done = "";
  #busy = false;

  constructor(private readonly c: ForgeClient) {}

  /** Called on every move of the forge's store: acts once per connection and key. */
  check(): void {
    const notify = this.c.state.home?.notify;
    const key = notify?.enabled && notify.channels.webpush.state !== "off"
      ? notify.vapid_public_key
      : null;
    if (!key || this.c.state.link !== "open" || this.#busy) return;
    const mark = `${this.c.stats.greetings} ${key}`;
    if (mark === this.#done) return;
    this.#done = mark;
    this.#busy = true;
    const said = (words: string) => pushWords.set(this.c.host, words);
    this.#subscribe(key).then(
      said,
      (err) => said(`the browser refused the subscription: ${String(err?.message ?? err)}`),
    ).finally(() => {
      this.#busy = false;
      this.c.store.changed();
    });
  }

  async #subscribe(key: string): Promise<string> {
    const reg = await activated(
      await navigator.serviceWorker.register(WORKER_URL, { scope: pushScope(this.c.host) }),
    );
    const bytes = keyBytes(key);
    let sub = await reg.pushManager.getSubscription();
    if (sub && !sameBytes(sub.options.applicationServerKey, bytes)) {
      // Made with a key forge no longer holds (its key file was lost): its pushes cannot land.
      this.c.command("notify_unsubscribe", { endpoint: sub.endpoint });
      await sub.unsubscribe();
      sub = null;
    }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    const json = sub.toJSON();
    if (!json.endpoint || !json.keys?.p256dh || !json.keys?.auth) {
      return "the browser's subscription carries no endpoint or keys";
    }
    this.c.command("notify_subscribe", {
      endpoint: json.endpoint,
      keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
    });
    return "subscribed";
  }
}
