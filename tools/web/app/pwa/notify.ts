import { slotName } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "../net/client.ts";
import type { Forges } from "../net/forges.ts";
import { ForgeAlerts, type Raise, seatHash, seatTag } from "./alerts.ts";
import { PushSubscriber } from "./push.ts";
import { shellRegistration } from "./shell.ts";

// The page's notifications and Web Push, loaded once the person granted permission: nothing of
// this is parsed before, so the first draw never pays for it.

const visible = () => document.visibilityState === "visible";

/** One notification, shown through the shell's service worker so a tap reaches it. */
const raise: Raise = (c, push) => {
  show(c, push).catch((err) => console.error("forge: a notification could not be shown", err));
};

async function show(...[c, push]: Parameters<Raise>): Promise<void> {
  const seat = slotName(push.seat);
  const several = forgesHeld && forgesHeld.list.length > 1;
  const title = several ? `${push.title} on ${c.host}` : push.title;
  const options = {
    body: push.body,
    tag: seatTag(c.host, seat),
    data: { open: seatHash(c.host, seat) },
  };
  const reg = await shellRegistration();
  if (reg) return await reg.showNotification(title, options);
  // No service worker (a browser without one): the page's own Notification, tapped here.
  const n = new Notification(title, options);
  n.onclick = () => {
    globalThis.focus();
    location.hash = options.data.open;
  };
}

let forgesHeld: Forges | null = null;

/**
 * Starts notifications for every forge the page holds, and for each one added later: a hidden
 * page's calls (alerts.ts) and each forge's Web Push subscription (push.ts).
 */
export function start(all: Forges): void {
  forgesHeld = all;
  const watched = new Map<ForgeClient, { alerts: ForgeAlerts; push: PushSubscriber }>();
  let shown = "";
  const sync = () => {
    for (const c of all.list) {
      if (!watched.has(c)) {
        watched.set(c, { alerts: new ForgeAlerts(c, visible, raise), push: new PushSubscriber(c) });
      }
    }
    for (const [c, w] of watched) {
      if (all.list.includes(c)) continue;
      w.alerts.stop();
      watched.delete(c);
    }
    for (const w of watched.values()) w.push.check();
    // The seat on screen moved: a seat left may call now, a seat shown may not.
    const now = all.list.map((c) => c.state.seat ? slotName(c.state.seat.slot) : "").join(" ");
    if (now !== shown) {
      shown = now;
      for (const w of watched.values()) w.alerts.attendanceChanged();
    }
  };
  all.listen(sync);
  sync();
  document.addEventListener("visibilitychange", () => {
    for (const w of watched.values()) w.alerts.attendanceChanged();
  });
}
