import type { ServerMessage } from "../../protocol/mod.ts";
import type { Cdp } from "./cdp.ts";
import type { TabViewers } from "./viewers.ts";

/** What a tab's history reads of its host (a TabHost, tab.ts): the CDP client and the id. */
export interface HistoryHost {
  cdp: Cdp;
  profileId: number;
}

/** One tab's history arrows: where it sits, the pushes after a navigation, a step through it. */
export class TabHistory {
  #reads: ReturnType<typeof setTimeout>[] = [];
  /** The arrows last pushed to the viewers (`back/forward`). */
  #sent = "";

  constructor(
    private readonly host: HistoryHost,
    private readonly tab: number,
    private readonly session: string,
    private readonly viewers: () => TabViewers,
  ) {}

  /** Where the history sits. spec: browser_nav_state. */
  async state(): Promise<ServerMessage> {
    const h = await this.host.cdp.send("Page.getNavigationHistory", {}, this.session)
      .catch(() => ({ currentIndex: 0, entries: [] })); // a closing tab: no history to step
    const index = Number(h.currentIndex ?? 0);
    const count = (h.entries as unknown[] | undefined)?.length ?? 0;
    return {
      kind: "browser_nav_state",
      id: this.host.profileId,
      tab: this.tab,
      can_back: index > 0,
      can_forward: index < count - 1,
    };
  }

  /**
   * Pushes the history arrows after a navigation, read now and again 100 ms and 500 ms later,
   * each sent only when it moved: Chromium reports a navigation (frameNavigated,
   * navigatedWithinDocument) before its history entry is committed, so a read at the event can
   * still say the old place - and nothing else would ever correct it.
   */
  pushAfterNavigation(): void {
    for (const t of this.#reads.splice(0)) clearTimeout(t);
    const read = async () => {
      if (this.viewers().size === 0) return;
      const state = await this.state();
      const key = `${state.kind === "browser_nav_state" && state.can_back}/${
        state.kind === "browser_nav_state" && state.can_forward
      }`;
      if (key === this.#sent) return;
      this.#sent = key;
      this.viewers().sendAll(state);
    };
    void read();
    for (const ms of [100, 500]) this.#reads.push(setTimeout(() => void read(), ms));
  }

  /** Moves one step through history; false when there is no step that way. */
  async go(back: boolean): Promise<boolean> {
    const h = await this.host.cdp.send("Page.getNavigationHistory", {}, this.session);
    const entries = h.entries as { id: number }[];
    const to = entries[Number(h.currentIndex) + (back ? -1 : 1)];
    if (!to) return false;
    await this.host.cdp.send("Page.navigateToHistoryEntry", { entryId: to.id }, this.session);
    return true;
  }
}
