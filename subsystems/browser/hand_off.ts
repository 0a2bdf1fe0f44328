import { isEngineError } from "../../server/subsystem.ts";
import { slotName } from "../../protocol/mod.ts";
import type { Host, ToolCall, ToolResult } from "../../server/subsystem.ts";
import type { Profiles } from "./profiles.ts";

/**
 * browser_hand_off (spec: browser_view_page's hand-off words; docs/browser.md): asks the person
 * to act in a tab. The page id must name an open tab before anything parks; the parked card
 * carries the tab and the page id; while it waits the tab is `held` and the page tools refuse.
 */
export async function handOff(
  host: Host,
  profiles: Profiles,
  input: { reason: string; page?: string },
  call: ToolCall,
): Promise<ToolResult> {
  const slot = call.seat.slot;
  const browser = profiles.forSeat(slot);
  let tab;
  if (typeof input.page === "string") {
    tab = browser.byTarget(input.page);
    if (!tab) {
      const open = [...browser.tabs.values()].map((t) => `${t.number} (page=${t.targetId})`);
      return {
        text: `no open tab carries page ${input.page}; open now: ${open.join(", ") || "none"}`,
        isError: true,
      };
    }
    // Each session drives its own tabs only; a person's tab (no owner) may be asked.
    if (tab.owner && slotName(tab.owner) !== slotName(slot)) {
      return {
        text: `tab ${tab.number} (page=${input.page}) belongs to ${
          slotName(tab.owner)
        }; a session hands off only its own tabs`,
        isError: true,
      };
    }
  } else {
    try {
      tab = await browser.tabFor(slot);
    } catch (err) {
      if (isEngineError(err)) throw new Error("the browser could not start", { cause: err });
      return { text: `the browser could not start: ${(err as Error).message}`, isError: true };
    }
  }
  if (tab.held) {
    return { text: `tab ${tab.number} already waits on a hand-off (${tab.held})`, isError: true };
  }
  const { id, outcome } = host.asks.park<unknown>(slot, {
    kind: "browser_hand_off",
    request: {
      reason: input.reason,
      tab: tab.number,
      page: tab.targetId,
      profile: browser.key,
    },
    signal: call.signal,
  });
  tab.held = id;
  browser.touch();
  host.log.info("browser_hand_off_parked", { seat: slotName(slot), id, tab: tab.number });
  try {
    const end = await outcome;
    if (end.ending === "answered") {
      return { text: `The person says they are done in tab ${tab.number}; carry on.` };
    }
    if (end.ending === "declined") {
      return {
        text: "The person declined (not now); the browser is unchanged. Decide what to do instead.",
        isError: true,
      };
    }
    return { text: `The hand-off ended without an answer (${end.ending}).`, isError: true };
  } finally {
    if (tab.held === id) tab.held = null;
    browser.touch();
  }
}
