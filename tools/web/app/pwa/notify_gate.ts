/**
 * Whether the page may notify, and the start of its notifications once it may: notify.ts and
 * push.ts load only then, and they build on shell.ts, which this file sits above.
 */
import type { Forges } from "../net/forges.ts";

/** What the page's notifications can do here, in the browser's own terms. */
export type NotifyPermission = NotificationPermission | "unavailable";

export function notifyPermission(): NotifyPermission {
  return "Notification" in globalThis && globalThis.isSecureContext
    ? Notification.permission
    : "unavailable";
}

let started = false;

/**
 * Starts the page's notifications (a hidden page calls for a seat that needs the person) and
 * its Web Push subscriptions, once permission is granted; their code loads only then.
 */
export async function startNotify(all: Forges): Promise<void> {
  if (started || notifyPermission() !== "granted") return;
  started = true;
  const notify = await import("./notify.ts");
  notify.start(all);
}

/** Asks the browser for notification permission (a press: browsers ask only on one). */
export async function askNotify(all: Forges): Promise<NotifyPermission> {
  if (notifyPermission() === "unavailable") return "unavailable";
  const answer = await Notification.requestPermission();
  await startNotify(all);
  return answer;
}
