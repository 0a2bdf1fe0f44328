import type { ServerMessage, Slot } from "../../protocol/mod.ts";
import type { Cdp, CdpBody } from "./cdp.ts";
import { type Layout, TabCast } from "./tab_cast.ts";
import { TabHistory } from "./tab_history.ts";
import { TabLog } from "./tab_log.ts";
import { TabViewers } from "./viewers.ts";

/** What a tab knows of its host. */
export interface TabHost {
  cdp: Cdp;
  profileId: number;
  profileKey: string;
  /** A row changed (title, url, state, dialog): push the strip. */
  changed(): void;
  /** A page asked for a file. */
  fileChooser(tab: Tab, backendNodeId: number, multiple: boolean): void;
}

/**
 * One page target of a host: its row (spec: browser_tabs rows) kept from its session's events,
 * its dialogs and title, its viewers and role, its frames (tab_cast.ts) and its history arrows.
 */
export class Tab {
  #owner: Slot | null = null;
  opener: number | null = null;
  title = "";
  url = "about:blank";
  dialog: { kind: string; message: string } | null = null;
  /** Calls driving it now; `in_use` while above zero. */
  calls = 0;
  /** The hand-off id parked on this tab, if any: `held`. */
  held: string | null = null;
  /** What its session is told on its next page tool call (tab_health.ts), then forgotten. */
  notes: string[] = [];
  readonly viewers: TabViewers;
  /** Its picture: the screencast, stills and the layout it paints at (tab_cast.ts). */
  readonly cast: TabCast;
  /** Its console and network record (tab_log.ts), for the agent's tools. */
  readonly log: TabLog;
  /** Its history arrows (tab_history.ts). */
  readonly history: TabHistory;
  #listeners = new Set<(method: string, p: CdpBody) => void>();
  #dialogWaiters: (() => void)[] = [];
  #titleAsk = 0;

  /** The session whose calls drive it (its row's `owner`): a new one is a row change. */
  get owner(): Slot | null {
    return this.#owner;
  }
  set owner(seat: Slot | null) {
    this.#owner = seat;
    this.host.changed();
  }

  constructor(
    private readonly host: TabHost,
    readonly number: number,
    readonly targetId: string,
    readonly session: string,
  ) {
    this.log = new TabLog(targetId);
    this.history = new TabHistory(host, number, session, () => this.viewers);
    this.viewers = new TabViewers((viewer) => ({
      kind: "browser_view",
      id: host.profileId,
      profile: host.profileKey,
      tab: number,
      controller: this.viewers.controller,
      viewers: this.viewers.size,
      viewer,
    }));
    this.cast = new TabCast({
      cdp: host.cdp,
      session,
      profileId: host.profileId,
      tab: number,
      viewers: this.viewers,
    });
  }

  /** Enables the domains a tab needs and lays the page out at its default size. */
  async init(): Promise<void> {
    const s = this.session;
    await Promise.all([
      this.host.cdp.send("Page.enable", {}, s),
      this.host.cdp.send("Runtime.enable", {}, s),
      // Chromium keeps bodies for Network.getResponseBody (200 MB by default); bounded per tab.
      this.host.cdp.send("Network.enable", {
        maxTotalBufferSize: 32 * 1024 * 1024,
        maxResourceBufferSize: 8 * 1024 * 1024,
      }, s),
      this.host.cdp.send("Log.enable", {}, s),
      this.host.cdp.send("Page.setInterceptFileChooserDialog", { enabled: true }, s),
    ]);
    await this.cast.applyLayout(this.cast.layout);
  }

  /** The layout the page is painted at. */
  get layout(): Layout {
    return this.cast.layout;
  }

  get state(): "in_use" | "idle" | "held" {
    return this.held ? "held" : this.calls > 0 ? "in_use" : "idle";
  }

  /** The tab's strip row. spec: browser_tabs rows. */
  row() {
    return {
      number: this.number,
      title: this.title,
      url: this.url,
      owner: this.owner,
      opener: this.opener,
      state: this.state,
      dialog: this.dialog,
    };
  }

  /** Hears every event of this tab's session until the returned function is called. */
  listen(fn: (method: string, p: CdpBody) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** One CDP event of this tab's session. */
  event(method: string, p: CdpBody): void {
    if (method === "Page.screencastFrame") return this.cast.frame(p);
    this.log.event(method, p);
    for (const fn of this.#listeners) fn(method, p);
    if (method === "Page.frameNavigated") {
      const frame = p.frame as { parentId?: string; url?: string };
      if (frame.parentId) return;
      this.url = frame.url ?? this.url;
      this.host.changed();
      this.history.pushAfterNavigation();
      // A page restored from the back-forward cache fires no load event: read its title now
      // that it is the frame's document.
      void this.refreshTitle();
      return;
    }
    if (method === "Page.navigatedWithinDocument") {
      this.url = String(p.url ?? this.url);
      this.host.changed();
      this.history.pushAfterNavigation();
      return;
    }
    if (method === "Page.loadEventFired" || method === "Page.domContentEventFired") {
      void this.refreshTitle();
      return;
    }
    if (method === "Page.javascriptDialogOpening") {
      this.dialog = { kind: String(p.type), message: String(p.message ?? "") };
      for (const w of this.#dialogWaiters.splice(0)) w();
      this.host.changed();
      return;
    }
    if (method === "Page.javascriptDialogClosed") {
      this.dialog = null;
      this.host.changed();
      return;
    }
    if (method === "Page.fileChooserOpened") {
      this.host.fileChooser(this, Number(p.backendNodeId), p.mode === "selectMultiple");
    }
  }

  /**
   * Runs work that may open a page dialog: a modal dialog holds the call that opened it (an
   * Input.dispatch*, an evaluate) unanswered until it closes, so the work counts as done once
   * the dialog opens. Its value, or null when a dialog opened first (its late end is let go).
   */
  async unlessDialog<T>(work: Promise<T>): Promise<{ value: T } | null> {
    let wake = () => {};
    const opened = new Promise<null>((r) => this.#dialogWaiters.push(wake = () => r(null)));
    try {
      return await Promise.race([work.then((value) => ({ value })), opened]);
    } finally {
      this.#dialogWaiters = this.#dialogWaiters.filter((w) => w !== wake);
    }
  }

  /** An input that may open a page dialog (unlessDialog), its value not wanted. */
  async inputUnlessDialog(input: Promise<unknown>): Promise<void> {
    await this.unlessDialog(input);
  }

  /** Reads the page's own title: target info carries the URL in its place while loading. */
  refreshTitle(fallback?: string, retries = 2): Promise<void> {
    // Only the newest read lands: an evaluate sent into a document being replaced can answer
    // after one sent into its successor.
    const ask = ++this.#titleAsk;
    const read = this.host.cdp.send("Runtime.evaluate", {
      expression: "document.title",
      returnByValue: true,
    }, this.session).then((r) => {
      if (ask !== this.#titleAsk) return;
      const own = (r.result as { value?: unknown }).value;
      const title = typeof own === "string" && own !== "" ? own : fallback ?? this.title;
      if (title !== this.title) {
        this.title = title;
        this.host.changed();
      }
    });
    // A read can fail once for a reason that passes (the context swapped under it, or the one
    // run a stopped script's termination still claims): asked again at once, a few times, so
    // the row does not keep the last page's title until some later event.
    return read.catch(() => {
      if (ask === this.#titleAsk && retries > 0) return this.refreshTitle(fallback, retries - 1);
      // A page that will not say its title keeps the one it had.
    });
  }

  /** The kept frame to one new viewer at once (marked key), then a fresh key frame to all. */
  keyFrameFor(viewer: number): Promise<void> {
    return this.cast.keyFrameFor(viewer);
  }

  /** Stops painting for nobody: a tab with no viewer costs no encoding. */
  stopCastIfUnwatched(): Promise<void> {
    return this.cast.stopCastIfUnwatched();
  }

  /** Lays the page out at `l`; a size it already has asks nothing. Then a key frame at it. */
  resize(l: Layout): Promise<void> {
    return this.cast.resize(l);
  }

  /** Where the history sits. spec: browser_nav_state. */
  navState(): Promise<ServerMessage> {
    return this.history.state();
  }

  /** Moves one step through history; false when there is no step that way. */
  go(back: boolean): Promise<boolean> {
    return this.history.go(back);
  }
}
