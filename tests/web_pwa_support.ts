import type { BrowserContext, CDPSession, Page, Worker } from "playwright-core";
import type { FakePushService } from "../fixtures/webpush/mod.ts";
import { until } from "./harness.ts";

// What the phone, install, notification and several-forges browser tests share: the page's
// visibility as a test sets it, a browser push service that cannot run here stood in for by the
// fake one, the page's service workers and the notifications they hold.

/**
 * The page's visibility under the test's hand: `document.visibilityState` and `document.hidden`
 * read a flag `setHidden` moves, which dispatches `visibilitychange` as a browser does when a tab
 * goes to the background. Headless Chromium draws every page as visible and offers no hiding
 * (minimising and background tabs leave it visible), so the test says what a phone would.
 */
const VISIBILITY = `(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get: () => hidden ? "hidden" : "visible" });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  globalThis.forgeTestSetHidden = (h) => {
    hidden = h;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();`;

export async function controlVisibility(page: Page): Promise<void> {
  await page.addInitScript(VISIBILITY);
}

export async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate(`globalThis.forgeTestSetHidden(${hidden})`);
}

/**
 * Every count the page puts on the app's badge (the Badging API, 0 for a cleared badge), as
 * `forgeTestBadges`, each call still made to the browser's own.
 */
export async function recordBadges(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    globalThis.forgeTestBadges = [];
    const set = Navigator.prototype.setAppBadge;
    const clear = Navigator.prototype.clearAppBadge;
    Navigator.prototype.setAppBadge = function (n) {
      globalThis.forgeTestBadges.push(n);
      return set.call(this, n);
    };
    Navigator.prototype.clearAppBadge = function () {
      globalThis.forgeTestBadges.push(0);
      return clear.call(this);
    };
  })();`);
}

/**
 * A browser's push service stood in for by fixtures/webpush (Chromium's own needs Google's
 * servers): `pushManager.subscribe` asks the fake for a subscription made with the page's
 * application server key, exactly the `{endpoint, keys}` a browser hands a page, and
 * `getSubscription` answers it after. What forge then sends lands at the fake, which checks the
 * VAPID JWT and decrypts it as a browser's push service and the browser would.
 */
export async function fakePushService(page: Page, push: FakePushService): Promise<void> {
  await page.exposeFunction("forgeTestSubscribe", (key: string) => push.subscribe(key));
  await page.addInitScript(`(() => {
    const subs = new Map();
    const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    PushManager.prototype.getSubscription = async function () {
      return subs.get(this) ?? null;
    };
    PushManager.prototype.subscribe = async function (options) {
      const key = options.applicationServerKey;
      const made = await globalThis.forgeTestSubscribe(b64url(key.buffer ?? key));
      const sub = {
        endpoint: made.endpoint,
        options: { applicationServerKey: new Uint8Array(key).buffer, userVisibleOnly: true },
        toJSON: () => made,
        unsubscribe: async () => subs.delete(this),
      };
      subs.set(this, sub);
      return sub;
    };
  })();`);
}

/** The page's service worker whose registration's scope ends with `scope` (`/`, `/push/...`). */
export async function workerAt(context: BrowserContext, origin: string, scope: string) {
  const want = `${origin}${scope}`;
  for (let tries = 0; tries < 600; tries++) {
    for (const w of context.serviceWorkers()) {
      if (await w.evaluate("self.registration.scope").catch(() => null) === want) return w;
    }
    await context.waitForEvent("serviceworker", { timeout: 100 }).catch(() => null);
  }
  throw new Error(`no service worker registered at ${want}`);
}

/** A registration's id, as CDP's ServiceWorker domain names it, by its scope URL. */
export async function registrationId(cdp: CDPSession, scopeUrl: string): Promise<string> {
  const { promise, resolve } = Promise.withResolvers<string>();
  const on = (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
    const hit = e.registrations.find((r) => r.scopeURL === scopeUrl);
    if (hit) resolve(hit.registrationId);
  };
  cdp.on("ServiceWorker.workerRegistrationUpdated", on);
  await cdp.send("ServiceWorker.enable");
  const id = await promise;
  cdp.off("ServiceWorker.workerRegistrationUpdated", on);
  return id;
}

export interface Shown {
  title: string;
  body: string;
  tag: string;
}

/** A notification a page or worker showed, and the scope path of the registration it used. */
export interface Recorded extends Shown {
  scope: string;
}

/**
 * Every notification shown through a service worker registration, recorded as `forgeTestShown`
 * (its scope path beside what `notificationsAt` reads) once the browser's `showNotification` has
 * resolved: the show is done, and the registration's notifications may be read.
 */
const RECORD_SHOWN = `(() => {
  if (globalThis.forgeTestShown) return;
  globalThis.forgeTestShown = [];
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = async function (title, options) {
    await show.call(this, title, options);
    globalThis.forgeTestShown.push({ scope: new URL(this.scope).pathname, title,
      body: options?.body ?? "", tag: options?.tag ?? "" });
  };
})();`;

/** Records every notification the page shows (RECORD_SHOWN), from its first script on. */
export async function recordShown(page: Page): Promise<void> {
  await page.addInitScript(RECORD_SHOWN);
}

/**
 * Records every notification a service worker shows from now on (RECORD_SHOWN). A worker runs no
 * init script; the test's connection to it keeps it running, so what it records stays.
 */
export async function recordShownIn(worker: Worker): Promise<void> {
  await worker.evaluate(RECORD_SHOWN);
}

/**
 * Waits until a page or worker (a Page or Worker) recording shows (recordShown, recordShownIn)
 * has shown `count` notifications in all; answers them, oldest first.
 */
export async function shownBy(
  where: { evaluate(expression: string): Promise<unknown> },
  count: number,
  what = `${count} notifications shown`,
): Promise<Recorded[]> {
  const read = () => where.evaluate("globalThis.forgeTestShown") as Promise<Recorded[]>;
  await until(async () => (await read()).length >= count, 30_000, what).catch(async (err) => {
    throw new Error(`${err.message}; shown so far: ${JSON.stringify(await read())}`);
  });
  return await read();
}

/**
 * The notifications a registration (by its scope path) shows now. Read it only once the shows
 * the test waits for are done (shownBy): Chromium drops a notification that replaces another of
 * its tag when a read of the registration's notifications runs while it is being shown, and
 * never returns it after.
 */
export function notificationsAt(page: Page, scope: string): Promise<Shown[]> {
  return page.evaluate(`navigator.serviceWorker.getRegistration(${JSON.stringify(scope)})
    .then((reg) => reg ? reg.getNotifications() : [])
    .then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag })))`);
}

/** Closes every notification a registration shows (a person swiping them away). */
export async function dismissAll(page: Page, scope: string): Promise<void> {
  await page.evaluate(`navigator.serviceWorker.getRegistration(${JSON.stringify(scope)})
    .then((reg) => reg.getNotifications()).then((ns) => ns.forEach((n) => n.close()))`);
}

/**
 * A tap on a notification: the worker that showed it is handed a `notificationclick` for it, as
 * the browser hands one when the person taps (CDP has no command that taps a notification).
 */
export async function tap(worker: Worker, tag: string): Promise<void> {
  await worker.evaluate(`self.registration.getNotifications({ tag: ${JSON.stringify(tag)} })
    .then(([n]) => {
      if (!n) throw new Error("no notification tagged " + ${JSON.stringify(tag)});
      self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n }));
    })`);
}

/**
 * Whether anything on the page is wider than the screen: the document scrolls sideways, or the
 * page's own scroller (main) or the rail does. A box that scrolls inside itself (a code block,
 * the terminal) is inside the screen and is not counted.
 */
export function sideways(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const wide = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > innerWidth) wide.push("document " + doc.scrollWidth + " > " + innerWidth);
    for (const el of document.querySelectorAll("main, .rail")) {
      if (el.scrollWidth > el.clientWidth) {
        wide.push(el.tagName.toLowerCase() + " " + el.scrollWidth + " > " + el.clientWidth);
      }
    }
    return wide;
  })()`);
}

/** A PNG's width and height, read from its header. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The base64 SHA-256 of a certificate's public key (its SubjectPublicKeyInfo), which Chromium's
 * `--ignore-certificate-errors-spki-list` trusts: the test's throwaway certificate, and no other.
 */
export async function spkiHash(certPath: string): Promise<string> {
  const out = await new Deno.Command("openssl", {
    args: ["x509", "-in", certPath, "-pubkey", "-noout"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`openssl x509: ${new TextDecoder().decode(out.stderr)}`);
  const pem = new TextDecoder().decode(out.stdout);
  const der = Uint8Array.from(
    atob(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")),
    (c) => c.charCodeAt(0),
  );
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", der));
  return btoa(String.fromCharCode(...digest));
}
