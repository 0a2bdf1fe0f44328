import { useEffect } from "preact/hooks";
import type { ForgeClient } from "../net/client.ts";

/** The page's own name in the tab; the count of seats waiting goes before it. */
const TITLE = "forge";

/** How many seats wait on the person across every forge: each home row with a parked ask. */
export function seatsWaiting(list: readonly ForgeClient[]): number {
  return list.reduce(
    (n, c) => n + (c.state.home?.agents.filter((a) => a.pending !== null).length ?? 0),
    0,
  );
}

/** The Badging API, where the browser has it (an installed app's icon). */
interface Badging {
  setAppBadge?: (n: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/**
 * The count of seats waiting, in the tab's title (`(2) forge`) and on the installed app's badge
 * where the browser has the Badging API. spec: home > agents (`pending`).
 */
export function useWaitingCount(list: readonly ForgeClient[]): void {
  const n = seatsWaiting(list);
  useEffect(() => {
    document.title = n > 0 ? `(${n}) ${TITLE}` : TITLE;
    const nav = navigator as Navigator & Badging;
    // A browser without the API, or one that refuses it outside an installed app, keeps the
    // title's count alone.
    const badge = n > 0 ? nav.setAppBadge?.(n) : nav.clearAppBadge?.();
    badge?.catch(() => {});
  }, [n]);
}
