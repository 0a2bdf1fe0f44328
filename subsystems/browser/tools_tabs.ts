import { slotName } from "../../protocol/mod.ts";
import type { Host, ToolResult } from "../../server/subsystem.ts";
import { evaluate, PageError, settle } from "./page_ops.ts";
import type { Profiles } from "./profiles.ts";
import type { Tab } from "./tab.ts";
import type { BrowserHandlers } from "./tool_specs.ts";

/** How long the listing waits for the pages' titles before naming the ones it last heard. */
const TITLES_MS = 2_000;

/** Each tab's title read now, or after TITLES_MS whatever was last heard. */
async function freshTitles(tabs: Tab[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(tabs.map((t) => t.refreshTitle())),
    new Promise((r) => (timer = setTimeout(r, TITLES_MS))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * browser_tabs and browser_close over the seat's own tabs: a session lists, opens, selects and
 * closes only the tabs it owns (spec: "Each session drives its own tabs only"); a held tab stays
 * open. `index` is the tab's place in the session's own list, from 0, as @playwright/mcp numbers
 * it; each line also names forge's tab number (what the tab strip and a hand-off show) and the
 * page id browser_hand_off takes.
 */
export function tabTools(
  host: Host,
  profiles: Profiles,
): Pick<BrowserHandlers, "browser_tabs" | "browser_close"> {
  return {
    browser_tabs: async (i, call): Promise<ToolResult> => {
      const browser = profiles.forSeat(call.seat.slot);
      const me = slotName(call.seat.slot);
      const mine = () =>
        [...browser.tabs.values()].filter((t) => t.owner && slotName(t.owner) === me)
          .sort((a, b) => a.number - b.number);
      try {
        await browser.tabFor(call.seat.slot);
        const pick = () => {
          const tabs = mine();
          if (typeof i.index !== "number") {
            return tabs.find((t) => t.number === browser.current.get(me)) ?? tabs[0];
          }
          const t = tabs[i.index];
          if (!t) {
            throw new PageError(
              `there is no tab at index ${i.index}: yours are at 0..${tabs.length - 1}\n${list()}`,
            );
          }
          return t;
        };
        const list = () =>
          mine().map((t, n) =>
            `- ${n}${browser.current.get(me) === t.number ? " (current)" : ""}: tab ${t.number} ` +
            `${JSON.stringify(t.title)} ${t.url} page=${t.targetId}`
          ).join("\n");
        if (i.action === "new") {
          const t = await browser.openTab(i.url ?? "about:blank");
          t.owner = call.seat.slot;
          await settle({ cdp: browser.cdp!, tab: t });
          t.url = String(await evaluate({ cdp: browser.cdp!, tab: t }, "location.href"));
          t.title = String(await evaluate({ cdp: browser.cdp!, tab: t }, "document.title"));
          browser.current.set(me, t.number);
        } else if (i.action === "select") browser.current.set(me, pick().number);
        else if (i.action === "close") await browser.closeTab(pick());
        await freshTitles(mine());
        host.log.debug("browser_tool_tabs", { seat: me, action: i.action });
        return { text: `### Open tabs\n${list() || "(none)"}` };
      } catch (err) {
        return { text: (err as Error).message, isError: true };
      }
    },
    browser_close: (_input, call): Promise<ToolResult> => {
      const browser = profiles.forSeat(call.seat.slot);
      const n = browser.current.get(slotName(call.seat.slot));
      const tab = n === undefined ? undefined : browser.tabs.get(n);
      if (!tab) return Promise.resolve({ text: "no tab of this session is open", isError: true });
      if (tab.held) {
        return Promise.resolve({
          text: `tab ${tab.number} is held by a hand-off (${tab.held}); it stays open`,
          isError: true,
        });
      }
      return browser.closeTab(tab).then(() => ({ text: `Closed tab ${tab.number}` }));
    },
  };
}
