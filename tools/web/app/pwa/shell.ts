/** The service worker's script: the web program serves it with the shell's file list. */
export const WORKER_URL = "/sw.js";

/** Each forge's Web Push subscription as its last try left it, in words, by host. */
export const pushWords = new Map<string, string>();

let shell: Promise<ServiceWorkerRegistration | null> | null = null;

let drawn: () => void = () => {};
/** Resolves once the page has drawn the view it was opened on (viewDrawn). */
const firstView = new Promise<void>((resolve) => drawn = resolve);

/**
 * The page drew the view it was opened on (the home's rows, a seat's conversation, another page,
 * or the words for why it cannot): the worker may register now without slowing that draw.
 */
export function viewDrawn(): void {
  drawn();
}

/** The main thread's next idle moment (soon, where the browser cannot say). */
function idle(): Promise<void> {
  return new Promise((resolve) =>
    "requestIdleCallback" in globalThis
      ? requestIdleCallback(() => resolve(), { timeout: 2_000 })
      : setTimeout(resolve, 0)
  );
}

/**
 * Registers the service worker that keeps the page's shell (the page opens with no network) and
 * answers a tapped notification by opening the seat in this window. A browser gives service
 * workers only to a secure context; elsewhere the page runs without one (views/secure.tsx says
 * so). Registered once the first view is drawn and the page is idle: installing it fetches the
 * whole shell, which would otherwise compete with that draw.
 */
export function startShell(): void {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) return;
  // A tap on a notification this page or a push raised: the worker names the seat's address.
  navigator.serviceWorker.addEventListener("message", (e: MessageEvent) => {
    const open: unknown = e.data?.open;
    if (typeof open === "string" && open.startsWith("#/")) location.hash = open;
  });
  shell = firstView.then(idle).then(() =>
    navigator.serviceWorker.register(WORKER_URL, { scope: "/" }).catch((err) => {
      console.error("forge: the service worker did not register", err);
      return null;
    })
  );
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
