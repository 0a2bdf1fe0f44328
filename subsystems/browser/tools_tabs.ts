import { slotName } from "../../protocol/mod.ts";
import type { Host, ToolHandler, ToolResult } from "../../server/subsystem.ts";
import { evaluate, PageError, settle } from "./page_ops.ts";
import type { In } from "./page_tool.ts";
import type { Profiles } from "./profiles.ts";

/**
 * browser_tabs and browser_close (mcp_tools.md §5) over the seat's own tabs: a session lists,
 * opens, selects and closes only the tabs it owns (spec: "Each session drives its own tabs
 * only"); a held tab stays open.
 */
export function tabTools(host: Host, profiles: Profiles): Record<string, ToolHandler> {
  return {
    browser_tabs: async (input, call): Promise<ToolResult> => {
      const i = input as In;
      const browser = profiles.forSeat(call.seat.slot);
      const me = slotName(call.seat.slot);
      const mine = () =>
        [...browser.tabs.values()].filter((t) => t.owner && slotName(t.owner) === me);
      try {
        await browser.tabFor(call.seat.slot);
        const n = typeof i.index === "number" ? i.index : browser.current.get(me);
        const pick = () => {
          const t = mine().find((t) => t.number === n);
          if (!t) throw new PageError(`tab ${n} is not one of yours; yours are ${list()}`);
          return t;
        };
        const list = () =>
          mine().map((t) =>
            `${t.number}${browser.current.get(me) === t.number ? " (current)" : ""}: ` +
            `${JSON.stringify(t.title)} ${t.url} page=${t.targetId}`
          ).join("; ");
        if (i.action === "new") {
          const t = await browser.openTab(typeof i.url === "string" ? i.url : "about:blank");
          t.owner = call.seat.slot;
          await settle({ cdp: browser.cdp!, tab: t });
          t.url = String(await evaluate({ cdp: browser.cdp!, tab: t }, "location.href"));
          t.title = String(await evaluate({ cdp: browser.cdp!, tab: t }, "document.title"));
          browser.current.set(me, t.number);
        } else if (i.action === "select") browser.current.set(me, pick().number);
        else if (i.action === "close") await browser.closeTab(pick());
        // The answer names each tab by the title its page holds now, not the last one heard.
        await Promise.all(mine().map((t) => t.refreshTitle()));
        host.log.debug("browser_tool_tabs", { seat: me, action: i.action });
        return { text: `Tabs: ${list() || "none"}` };
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
