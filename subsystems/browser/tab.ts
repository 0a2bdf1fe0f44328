import { encodeBrowserFrame, type ServerMessage, type Slot } from "../../protocol/mod.ts";
import type { Cdp, CdpBody } from "./cdp.ts";
import { TabHistory } from "./tab_history.ts";
import { TabLog } from "./tab_log.ts";
import { TabViewers } from "./viewers.ts";
import { webpSize } from "./webp.ts";

/** The page's layout: CSS pixels and the ratio they draw at. spec: browser_resize. */
export interface Layout {
  width: number;
  height: number;
  scale: number;
}

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

function b64bytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * One page target of a host: its row (spec: browser_tabs rows), its viewers and role, its frames
 * (CDP screencast in WebP, relayed byte for byte with a per-tab seq) and its history arrows.
 */
export class Tab {
  owner: Slot | null = null;
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
  layout: Layout = { width: 1280, height: 720, scale: 1 };
  readonly viewers: TabViewers;
  /** Its console and network record (tab_log.ts), for the agent's tools. */
  readonly log: TabLog;
  /** Its history arrows (tab_history.ts). */
  readonly history: TabHistory;
  #listeners = new Set<(method: string, p: CdpBody) => void>();
  #seq = 0;
  #kept: { bytes: Uint8Array; width: number; height: number; pw: number; ph: number } | null = null;
  #casting = false;
  #firstCast = true;
  #castTries = 0;
  #castRetry: ReturnType<typeof setTimeout> | undefined;
  #dialogWaiters: (() => void)[] = [];
  #titleAsk = 0;
  #layoutChain: Promise<void> = Promise.resolve();
  /** The last frame-relay time, for the bench's input-to-next-frame read. */
  lastFrameAt = 0;

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
    await this.#applyLayout(this.layout);
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
    if (method === "Page.screencastFrame") return this.#frame(p);
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
  refreshTitle(fallback?: string): Promise<void> {
    // Only the newest read lands: an evaluate sent into a document being replaced can answer
    // after one sent into its successor.
    const ask = ++this.#titleAsk;
    return this.host.cdp.send("Runtime.evaluate", {
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
    }).catch(() => {/* a page that will not say its title keeps the one it had */});
  }

  #frame(p: CdpBody): void {
    this.host.cdp.send("Page.screencastFrameAck", { sessionId: p.sessionId }, this.session)
      .catch(() => {/* an ack to a tab that closed: the frame below is its last */});
    const bytes = b64bytes(String(p.data));
    const meta = p.metadata as { deviceWidth: number; deviceHeight: number };
    const size = webpSize(bytes) ?? { width: 0, height: 0 };
    this.#kept = {
      bytes,
      width: size.width,
      height: size.height,
      pw: Math.round(meta.deviceWidth),
      ph: Math.round(meta.deviceHeight),
    };
    // A frame painted while a new layout lands carries the new viewport in its metadata but the
    // old page's picture (800x600 asked, an 800x450 image): it is never the key frame a resize
    // promises; the next frame whose picture fits its viewport is.
    const w = meta.deviceWidth;
    const h = meta.deviceHeight;
    const fits = !size.width || !size.height || !w || !h ||
      Math.abs(size.width / size.height - w / h) <= 0.02 * (w / h);
    const key = this.#firstCast && fits;
    if (key) this.#firstCast = false;
    this.#relay(key);
  }

  #relay(key: boolean, only?: number, seq = ++this.#seq): void {
    const k = this.#kept;
    if (!k) return;
    this.lastFrameAt = performance.now();
    this.viewers.frame(
      encodeBrowserFrame({
        profile: this.host.profileId,
        tab: this.number,
        seq,
        width: k.width,
        height: k.height,
        format: 1,
        key,
        pageWidth: k.pw,
        pageHeight: k.ph,
        bytes: k.bytes,
      }),
      only,
    );
  }

  /** The kept frame to one new viewer at once (marked key), then a fresh key frame to all. */
  keyFrameFor(viewer: number): Promise<void> {
    if (this.#kept) this.#relay(true, viewer, this.#seq);
    return this.#serial(() => this.#castAndStill());
  }

  /**
   * Starts the cast and relays a still. Chromium refuses both while the page's navigation
   * commits (measured: a tab opened and watched at once, ~1 start in 8 in the web browser
   * test), and a refused cast never sends a frame: either refused, both are asked again 250 ms
   * later while anyone watches (20 tries at most; a success resets them).
   */
  async #castAndStill(): Promise<void> {
    const cast = await this.#startCast();
    const still = await this.captureKeyFrame();
    if (cast && still) {
      this.#castTries = 0;
      return;
    }
    if (this.#castRetry !== undefined || ++this.#castTries > 20) return;
    this.#castRetry = setTimeout(() => {
      this.#castRetry = undefined;
      // A retry that fails schedules the next (up to its tries); it has nothing else to say.
      if (this.viewers.size > 0) void this.#serial(() => this.#castAndStill()).catch(() => {});
    }, 250);
  }

  /**
   * Runs layout and cast changes one at a time: two resizes (or a resize and an attach's key
   * frame) interleaving would restart the cast out of order and leave the page at the size the
   * slower one asked for, whichever came last.
   */
  #serial(work: () => Promise<void>): Promise<void> {
    const run = this.#layoutChain.then(work);
    // A CDP call a page dialog holds (a screenshot waits for the dialog to close) must not stall
    // every later resize: the chain moves on after 5 s; the held call still ends on its own.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bounded = Promise.race([run, new Promise<void>((r) => (timer = setTimeout(r, 5000)))]);
    // The chain's own copy: the caller awaits `run` and hears its failure.
    this.#layoutChain = bounded.catch(() => {}).finally(() => clearTimeout(timer));
    return run;
  }

  /** A full-quality still of the page now, relayed to every viewer as a key frame; false when
   * Chromium refused it. */
  async captureKeyFrame(): Promise<boolean> {
    const shot = await this.host.cdp.send("Page.captureScreenshot", {
      format: "webp",
      quality: 90,
    }, this.session).catch(() => null); // a tab mid-navigation has no still: answered false
    if (!shot) return false;
    const bytes = b64bytes(String(shot.data));
    const size = webpSize(bytes) ?? { width: 0, height: 0 };
    // The header's page size is what the still shows, read off the image: the layout asked for
    // may not have been laid out yet when the shot was taken.
    const scale = this.layout.scale || 1;
    this.#kept = {
      bytes,
      width: size.width,
      height: size.height,
      pw: size.width ? Math.round(size.width / scale) : this.layout.width,
      ph: size.height ? Math.round(size.height / scale) : this.layout.height,
    };
    this.#relay(true);
    return true;
  }

  /** Starts the screencast unless it runs; false when Chromium refused it (left unmarked). */
  async #startCast(): Promise<boolean> {
    if (this.#casting) return true;
    this.#casting = true;
    this.#firstCast = true;
    const started = await this.host.cdp.send("Page.startScreencast", {
      format: "webp",
      quality: 60,
      maxWidth: Math.round(this.layout.width * this.layout.scale),
      maxHeight: Math.round(this.layout.height * this.layout.scale),
      everyNthFrame: 1,
    }, this.session).then(() => true, () => false);
    if (!started) this.#casting = false;
    return started;
  }

  /** Stops painting for nobody: a tab with no viewer costs no encoding. */
  async stopCastIfUnwatched(): Promise<void> {
    if (!this.#casting || this.viewers.size > 0) return;
    this.#casting = false;
    // Stopping a cast the tab already ended (it closed) changes nothing.
    await this.host.cdp.send("Page.stopScreencast", {}, this.session).catch(() => {});
  }

  /** Lays the page out at `l`; a size it already has asks nothing. Then a key frame at it. */
  resize(l: Layout): Promise<void> {
    return this.#serial(() => this.#resizeNow(l));
  }

  async #resizeNow(l: Layout): Promise<void> {
    const same = l.width === this.layout.width && l.height === this.layout.height &&
      l.scale === this.layout.scale;
    if (same) return;
    await this.#applyLayout(l);
    if (!this.#casting) {
      await this.captureKeyFrame();
      return;
    }
    this.#casting = false;
    // As above: a cast already over needs no stop.
    await this.host.cdp.send("Page.stopScreencast", {}, this.session).catch(() => {});
    await this.#castAndStill();
  }

  async #applyLayout(l: Layout): Promise<void> {
    this.layout = l;
    await this.host.cdp.send("Emulation.setDeviceMetricsOverride", {
      width: l.width,
      height: l.height,
      deviceScaleFactor: l.scale,
      mobile: false,
    }, this.session);
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
