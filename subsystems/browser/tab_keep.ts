import { parseSlotName, type Slot, slotName } from "../../protocol/mod.ts";
import type { Logger } from "../../server/log.ts";
import type { BrowserHost } from "./host.ts";
import type { SeatTabs } from "./tab_book.ts";

/**
 * What each seat has open on `host` now, as the tab book keeps it: the pages of the tabs its
 * session owns in the order they were opened (a tab a page opened belongs to its opener's seat),
 * and which of them is its current one. A tab no seat owns (the boot tab, an `open_url` page) is
 * nobody's to reopen.
 */
export function seatTabsOf(host: BrowserHost): Record<string, SeatTabs> {
  const seats: Record<string, SeatTabs> = {};
  const tabs = [...host.tabs.values()].sort((a, b) => a.number - b.number);
  for (const tab of tabs) {
    if (!tab.owner) continue;
    const seat = slotName(tab.owner);
    const kept = seats[seat] ??= { urls: [], active: null };
    if (host.current.get(seat) === tab.number) kept.active = kept.urls.length;
    kept.urls.push(tab.url);
  }
  return seats;
}

/**
 * Opens again, on a host that just started, the tabs each seat had open when its profile's host
 * last ran: each owned by its seat as before, its current one current again, so the agent's next
 * page call and a viewer's attach land on the page the seat was on. A page that will not open is
 * logged and the rest still open; a seat `belongs` refuses (not this profile's now) is skipped.
 */
export async function reopenTabs(
  host: BrowserHost,
  kept: Record<string, SeatTabs>,
  log: Logger,
  belongs: (seat: Slot) => boolean,
): Promise<void> {
  for (const [seat, { urls, active }] of Object.entries(kept)) {
    // A seat no longer configured, or now on another profile, has no tabs here.
    const owner = parseSlotName(seat);
    if (!owner || !belongs(owner)) continue;
    for (const [i, url] of urls.entries()) {
      try {
        const tab = await host.openTab(url);
        tab.owner = owner;
        if (i === active) host.current.set(seat, tab.number);
      } catch (error) {
        log.warn("browser_tab_reopen_failed", { profile: host.key, seat, url, error });
      }
    }
  }
  if (Object.keys(kept).length > 0) {
    log.info("browser_tabs_reopened", {
      profile: host.key,
      seats: Object.keys(kept).length,
      tabs: [...host.tabs.values()].filter((t) => t.owner).length,
    });
  }
}
