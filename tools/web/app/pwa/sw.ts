/**
 * The page's service worker, bundled on its own (`/sw.js`). The web program prepends
 * `FORGE_SHELL`: this build's name and the files of the page's shell.
 *
 * - Registered at `/` it keeps the shell: every file is cached at install, and a fetch that
 *   finds no network is answered from the cache, so the page opens offline and says so.
 * - Registered at `/push/<host>/` it holds that forge's Web Push subscription and shows each
 *   push (protocol/notify.ts NotifyPushPayload) under the seat's tag.
 * - Either one answers a tapped notification by opening the seat: in a window of this page
 *   already open, or a new one.
 */
import { NotifyPushPayload } from "../../../../protocol/notify.ts";

declare const FORGE_SHELL: { build: string; files: string[] };

/** The parts of a service worker's global scope and events this worker uses. */
interface Extendable extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchLike extends Extendable {
  request: Request;
  respondWith(answer: Promise<Response>): void;
}
interface PushLike extends Extendable {
  data: { json(): unknown } | null;
}
interface ClickLike extends Extendable {
  notification: Notification;
}
interface WindowLike {
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(o: { type: "window"; includeUncontrolled: boolean }): Promise<WindowLike[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, fn: (e: never) => void): void;
}
const worker = globalThis as unknown as WorkerScope;

const CACHE = `forge-shell-${FORGE_SHELL.build}`;
const scope = new URL(worker.registration.scope);
/** The shell's registration, not a forge's push registration. */
const keepsShell = scope.pathname === "/";
/** The forge a push registration belongs to, from its scope (`/push/<host>/`). */
const pushHost = /^\/push\/([^/]+)\/$/.exec(scope.pathname)?.[1];
const forgeHost = pushHost ? decodeURIComponent(pushHost) : null;

/** Runs the work to its end; an event a script built cannot be extended, but the work runs. */
function extend(e: Extendable, work: Promise<unknown>): void {
  try {
    e.waitUntil(work);
  } catch {
    work.catch((err) => console.error("forge worker:", err));
  }
}

worker.addEventListener("install", (e: Extendable) => {
  const cached = keepsShell
    ? caches.open(CACHE).then((c) => c.addAll(FORGE_SHELL.files))
    : Promise.resolve();
  extend(e, cached.then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (e: Extendable) => {
  const old = keepsShell
    ? caches.keys().then((names) =>
      Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n)))
    )
    : Promise.resolve();
  extend(e, old.then(() => worker.clients.claim()));
});

worker.addEventListener("fetch", (e: FetchLike) => {
  const url = new URL(e.request.url);
  if (!keepsShell || e.request.method !== "GET" || url.origin !== scope.origin) return;
  // The network first, so a running page is always today's; the cache when there is none.
  e.respondWith(
    fetch(e.request).catch(async () => {
      const kept = await caches.match(e.request, { ignoreSearch: true, cacheName: CACHE });
      if (kept) return kept;
      if (e.request.mode === "navigate") {
        const shell = await caches.match("/", { cacheName: CACHE });
        if (shell) return shell;
      }
      return Response.error();
    }),
  );
});

worker.addEventListener("push", (e: PushLike) => {
  let body: unknown = null;
  try {
    body = e.data?.json() ?? null;
  } catch { /* not JSON: said below as what it is */ }
  const read = NotifyPushPayload.safeParse(body);
  if (!read.success) {
    // A push must show something (userVisibleOnly): say it could not be read.
    extend(
      e,
      worker.registration.showNotification("forge", { body: "a push this page cannot read" }),
    );
    return;
  }
  const p = read.data;
  const host = forgeHost ?? scope.host;
  const open = p.seat ? `#/@${host}/seat/${p.seat}` : null;
  extend(
    e,
    worker.registration.showNotification(p.title, {
      body: p.body,
      tag: p.seat ? `forge ${host} ${p.seat}` : `forge ${host}`,
      data: { open, url: p.url },
    }),
  );
});

worker.addEventListener("notificationclick", (e: ClickLike) => {
  e.notification.close();
  const data = e.notification.data as { open?: unknown; url?: unknown } | null;
  const open = typeof data?.open === "string" ? data.open : null;
  const url = typeof data?.url === "string" ? data.url : null;
  extend(e, openSeat(open, url));
});

/** A window of this page goes to the seat; with none open, a new one opens on it. */
async function openSeat(open: string | null, url: string | null): Promise<void> {
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const target = open ? `${scope.origin}/${open}` : url ?? `${scope.origin}/`;
  const [first] = windows;
  if (!first) {
    await worker.clients.openWindow(target);
    return;
  }
  if (open) first.postMessage({ open });
  // Focusing is the browser's to allow (a tap allows it); the seat is opened either way.
  await first.focus().catch(() => {});
}
