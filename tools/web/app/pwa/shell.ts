import type { Forges } from "../net/forges.ts";

/** The service worker's script: the web program serves it with the shell's file list. */
export const WORKER_URL = "/sw.js";

/** What the page's notifications can do here, in the browser's own terms. */
export type NotifyPermission = NotificationPermission | "unavailable";

/** Each forge's Web Push subscription as its last try left it, in words, by host. */
export const pushWords = new Map<string, string>();

let shell: Promise<ServiceWorkerRegistration | null> | null = null;

/**
 * Registers the service worker that keeps the page's shell (the page opens with no network) and
 * answers a tapped notification by opening the seat in this window. A browser gives service
 * workers only to a secure context; elsewhere the page runs without one (views/secure.tsx says
 * so). Registered after the first draw, so it never delays it.
 */
export function startShell(): void {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) return;
  // A tap on a notification this page or a push raised: the worker names the seat's address.
  navigator.serviceWorker.addEventListener("message", (e: MessageEvent) => {
    const open: unknown = e.data?.open;
    if (typeof open === "string" && open.startsWith("#/")) location.hash = open;
  });
  shell = new Promise((resolve) => {
    const register = () =>
      navigator.serviceWorker.register(WORKER_URL, { scope: "/" }).then(
        resolve,
        (err) => {
          console.error("forge: the service worker did not register", err);
          resolve(null);
        },
      );
    if (document.readyState === "complete") register();
    else addEventListener("load", register, { once: true });
  });
}

/** The shell's registration once it is active, or null where there is none. */
export async function shellRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!shell) return null;
  const reg = await shell;
  return reg ? await activated(reg) : null;
}

/** A registration whose worker is active (push subscribes and notifications need one). */
export async function activated(
  reg: ServiceWorkerRegistration,
): Promise<ServiceWorkerRegistration> {
  const worker = reg.installing ?? reg.waiting;
  if (reg.active || !worker) return reg;
  await new Promise<void>((resolve) => {
    const on = () => {
      if (worker.state === "activated" || worker.state === "redundant") resolve();
    };
    worker.addEventListener("statechange", on);
    on();
  });
  return reg;
}

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
