import { type ServerMessage, type Slot, slotName } from "../../protocol/mod.ts";
import type { HostAudio } from "./audio.ts";
import { type Cdp, type CdpBody, connectCdp } from "./cdp.ts";
import { CurrentTabs } from "./current_tabs.ts";
import { PageDriver } from "./driver.ts";
import { killGroup, launchChromium } from "./launch.ts";
import { endLeftover } from "./leftover.ts";
import { Tab } from "./tab.ts";
import { readyForAttach } from "./tab_health.ts";

/** What a host needs from the subsystem around it. */
export interface HostEnv {
  /** The Chromium binary, or null with the sentence saying why there is none. */
  chromium(): { bin: string } | { bin: null; why: string };
  /** The idle clock in milliseconds, read at use (a live key). */
  idleMs(): number;
  /** The rows changed: push `browser_tabs` to whoever follows this profile. */
  tabsChanged(host: BrowserHost): void;
  /** The host is up with its boot tab: reopen the tabs its seats had open (tab_keep.ts). */
  reopen(host: BrowserHost): Promise<void>;
  /** A page asked for a file; a download finished (files.ts). */
  fileChooser(host: BrowserHost, tab: Tab, backendNodeId: number, multiple: boolean): void;
  downloadEvent(host: BrowserHost, method: string, params: CdpBody): void;
  /** The host's page audio: Chromium's PULSE_SINK, or the sentence saying why there is none. */
  audio(host: BrowserHost): Promise<HostAudio>;
  /** One chunk of the host's PCM. */
  deliverAudio(host: BrowserHost, pcm: Uint8Array): void;
  log(event: string, fields: Record<string, unknown>): void;
}

/**
 * One profile's headless Chromium: started by the first page call or attach,
 * closed by the idle clock, replaced when it dies. Its tabs are numbered from 1 per run.
 */
export class BrowserHost {
  cdp: Cdp | null = null;
  #child: Deno.ChildProcess | null = null;
  #starting: Promise<void> | null = null;
  readonly tabs = new Map<number, Tab>();
  #bySession = new Map<string, Tab>();
  #nextNumber = 1;
  /** Each seat's current tab number (a move is kept, like a row change). */
  readonly current: Map<string, number> = new CurrentTabs(() => this.env.tabsChanged(this));
  closingAt: number | null = null;
  #idle: ReturnType<typeof setTimeout> | null = null;
  #closing = false;
  startMs = 0;
  audioNote: string | null = null;
  #audio: HostAudio | null = null;
  #wsUrl: string | null = null;
  /**
   * The agent's page tools' Playwright, attached to this Chromium beside `cdp` on first use and
   * ended with it (driver.ts).
   */
  readonly driver: PageDriver;

  constructor(
    private readonly env: HostEnv,
    readonly key: string,
    readonly id: number,
    readonly dir: string,
  ) {
    const log = (event: string, fields: Record<string, unknown>) =>
      this.env.log(event, { profile: this.key, ...fields });
    this.driver = new PageDriver({
      wsUrl: () => this.#wsUrl,
      readyForAttach: () =>
        this.cdp ? readyForAttach(this.cdp, [...this.tabs.values()], log) : Promise.resolve(null),
      log,
    }, `${dir}/playwright`);
  }

  get up(): boolean {
    return this.cdp !== null;
  }

  /**
   * Whether its tabs are the seats' own doing now: up, started (not reopening what was kept) and
   * not closing (a close drops every tab, which no seat asked for).
   */
  get settled(): boolean {
    return this.cdp !== null && this.#starting === null && !this.#closing;
  }

  /** The DevTools URL of the running Chromium (a bench attaches its own Playwright), or null. */
  get devtoolsUrl(): string | null {
    return this.#wsUrl;
  }

  pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Starts Chromium when it is not running; concurrent callers share one start. */
  ensureUp(): Promise<void> {
    if (this.cdp) return Promise.resolve();
    this.#starting ??= this.#start().finally(() => (this.#starting = null));
    return this.#starting;
  }

  async #start(): Promise<void> {
    const chromium = this.env.chromium();
    if (chromium.bin === null) throw new Error(chromium.why);
    const audio = await this.env.audio(this);
    this.audioNote = audio.note;
    let launched;
    try {
      // A Chromium an earlier forge left over this profile would hold it: ended first.
      await endLeftover(
        `${this.dir}/user-data`,
        (e, f) => this.env.log(e, { profile: this.key, ...f }),
      );
      launched = await launchChromium(chromium.bin, `${this.dir}/user-data`, audio.env);
    } catch (err) {
      audio.stop();
      throw err;
    }
    this.#audio = audio;
    this.#child = launched.child;
    this.startMs = launched.startMs;
    let cdp: Cdp;
    try {
      cdp = await connectCdp(launched.wsUrl);
    } catch (err) {
      killGroup(launched.child.pid);
      throw new Error(`chromium opened DevTools but forge could not connect: ${err}`);
    }
    this.cdp = cdp;
    this.#wsUrl = launched.wsUrl;
    this.#closing = false;
    const child = launched.child;
    cdp.onEvent((method, params, session) => this.#event(method, params, session));
    cdp.onClose(() => this.#died(child, "the browser's DevTools connection closed"));
    child.status.then((s) => this.#died(child, `chromium exited (${s.signal ?? s.code})`));
    await Deno.mkdir(`${this.dir}/downloads`, { recursive: true });
    await cdp.send("Browser.setDownloadBehavior", {
      behavior: "allowAndName",
      downloadPath: `${this.dir}/downloads`,
      eventsEnabled: true,
    });
    await cdp.send("Target.setDiscoverTargets", { discover: true });
    // The boot tab: the first page call adopts it rather than opening a second.
    const targets = await cdp.send("Target.getTargets");
    for (const t of targets.targetInfos as { type: string; targetId: string }[]) {
      if (t.type === "page") await this.#adopt(t.targetId, null);
    }
    await this.env.reopen(this);
    audio.start((pcm) => this.env.deliverAudio(this, pcm));
    this.env.log("browser_host_started", {
      profile: this.key,
      pid: child.pid,
      ms: this.startMs,
      audio: this.audioNote ?? "on",
    });
    this.touch();
  }

  async #adopt(targetId: string, opener: number | null): Promise<Tab | null> {
    const cdp = this.cdp!;
    for (const t of this.tabs.values()) if (t.targetId === targetId) return t;
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
    const tab = new Tab(
      {
        cdp,
        profileId: this.id,
        profileKey: this.key,
        changed: () => this.env.tabsChanged(this),
        fileChooser: (t, node, multiple) => this.env.fileChooser(this, t, node, multiple),
      },
      this.#nextNumber++,
      targetId,
      String(sessionId),
    );
    tab.opener = opener;
    this.tabs.set(tab.number, tab);
    this.#bySession.set(tab.session, tab);
    await tab.init().catch((error) => this.env.log("browser_tab_init_failed", { error }));
    void tab.refreshTitle();
    this.env.tabsChanged(this);
    return tab;
  }

  #event(method: string, params: CdpBody, session: string | undefined): void {
    if (method.startsWith("Browser.download")) return this.env.downloadEvent(this, method, params);
    if (session) {
      this.#bySession.get(session)?.event(method, params);
      return;
    }
    const info = params.targetInfo as
      | { targetId: string; type: string; title: string; url: string; openerId?: string }
      | undefined;
    if (method === "Target.targetCreated" && info?.type === "page" && info.openerId) {
      const opener = [...this.tabs.values()].find((t) => t.targetId === info.openerId);
      if (opener) {
        void this.#adopt(info.targetId, opener.number).then((t) => {
          if (t) t.owner = opener.owner;
        }).catch((error) => this.env.log("browser_tab_adopt_failed", { error }));
      }
    } else if (method === "Target.targetInfoChanged" && info) {
      const tab = [...this.tabs.values()].find((t) => t.targetId === info.targetId);
      if (tab && tab.url !== info.url) {
        tab.url = info.url;
        this.env.tabsChanged(this);
      }
      void tab?.refreshTitle(info.title);
    } else if (method === "Target.targetDestroyed") {
      const tab = [...this.tabs.values()].find((t) => t.targetId === params.targetId);
      if (tab) this.#dropTab(tab, "the tab closed");
    }
  }

  #dropTab(tab: Tab, reason: string): void {
    this.tabs.delete(tab.number);
    this.#bySession.delete(tab.session);
    for (const [seat, n] of this.current) if (n === tab.number) this.current.delete(seat);
    this.#surfaceFailed(tab, reason);
    this.env.tabsChanged(this);
  }

  #surfaceFailed(tab: Tab, reason: string): void {
    const failed: ServerMessage = {
      kind: "browser_surface_failed",
      id: this.id,
      tab: tab.number,
      reason,
    };
    for (const sink of tab.viewers.clear()) sink.send(failed);
  }

  #died(child: Deno.ChildProcess, reason: string): void {
    if (this.#child !== child) return;
    const expected = this.#closing;
    this.#child = null;
    const cdp = this.cdp;
    this.cdp = null;
    this.#wsUrl = null;
    this.driver.close(
      reason === "closed" ? "the browser closed" : `the browser stopped: ${reason}`,
    );
    killGroup(child.pid);
    void cdp?.close();
    this.#audio?.stop();
    this.#audio = null;
    if (!expected) {
      this.env.log("browser_host_died", { profile: this.key, reason });
      for (const tab of this.tabs.values()) this.#surfaceFailed(tab, reason);
    }
    this.tabs.clear();
    this.#bySession.clear();
    this.current.clear();
    this.#nextNumber = 1;
    this.closingAt = null;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    this.env.tabsChanged(this);
  }

  /** The seat's tab: its current one, else the unowned boot tab, else a new one. */
  async tabFor(seat: Slot): Promise<Tab> {
    await this.ensureUp();
    const name = slotName(seat);
    const n = this.current.get(name);
    const mine = n === undefined ? undefined : this.tabs.get(n);
    if (mine) return mine;
    let tab = [...this.tabs.values()].find((t) => t.owner === null && t.opener === null);
    if (!tab) tab = await this.openTab("about:blank");
    tab.owner = seat;
    this.current.set(name, tab.number);
    this.env.tabsChanged(this);
    return tab;
  }

  /** Opens a new page target and adopts it. */
  async openTab(url: string): Promise<Tab> {
    await this.ensureUp();
    // Blank first, then navigate: a page that loaded before forge attached would leave its
    // load (and so its title) unheard.
    // Each tab in a window of its own: a tab behind another in one window is hidden, and a
    // hidden page runs no animation frames, which Playwright's actions wait on (and a viewer of
    // it would see no paint).
    const { targetId } = await this.cdp!.send("Target.createTarget", {
      url: "about:blank",
      newWindow: true,
    });
    const tab = await this.#adopt(String(targetId), null);
    if (!tab) throw new Error("the new tab vanished before forge could attach to it");
    if (url !== "about:blank") await this.cdp!.send("Page.navigate", { url }, tab.session);
    return tab;
  }

  /** Closes one tab's page target. */
  async closeTab(tab: Tab): Promise<void> {
    // A target already gone is closed; the tab is dropped below either way.
    await this.cdp?.send("Target.closeTarget", { targetId: tab.targetId }).catch(() => {});
    if (this.tabs.has(tab.number)) this.#dropTab(tab, "the tab closed");
  }

  /** Closes every tab a seat's session owns: a tab closes with its session (spec: browser_tabs). */
  async closeSeat(seat: Slot): Promise<void> {
    const name = slotName(seat);
    this.current.delete(name);
    for (const tab of [...this.tabs.values()]) {
      if (tab.owner && slotName(tab.owner) === name) await this.closeTab(tab);
    }
  }

  /** The tab carrying a CDP target id (a hand-off's page id), if open. */
  byTarget(targetId: string): Tab | undefined {
    return [...this.tabs.values()].find((t) => t.targetId === targetId);
  }

  /** Whether anything uses the host: a viewer attached or a call driving a tab. */
  inUse(): boolean {
    return [...this.tabs.values()].some((t) => t.viewers.size > 0 || t.calls > 0 || t.held);
  }

  /** Restarts the idle clock from now. spec: browser_tabs closing_at_ms. */
  touch(): void {
    if (!this.cdp) return;
    if (this.#idle) clearTimeout(this.#idle);
    const ms = this.env.idleMs();
    const before = this.closingAt;
    this.closingAt = Date.now() + ms;
    this.#idle = setTimeout(() => {
      this.#idle = null;
      if (this.inUse()) return this.touch();
      this.env.log("browser_host_idle_closed", { profile: this.key });
      void this.close();
    }, ms);
    // The strip hears a moved deadline, not every gesture that moved it by a few milliseconds.
    if (before === null || Math.abs(this.closingAt - before) >= 1000) this.env.tabsChanged(this);
  }

  /** Closes Chromium on purpose (idle clock, shutdown). */
  async close(): Promise<void> {
    await this.#starting?.catch(() => {/* a start that failed was told by its own caller */});
    const child = this.#child;
    if (!child) return;
    this.#closing = true;
    // A browser that will not answer the close is killed below, which is the fallback.
    const asked = this.cdp?.send("Browser.close").catch(() => {});
    await Promise.race([asked, new Promise((r) => setTimeout(r, 2000))]);
    const timer = setTimeout(() => killGroup(child.pid), 3000);
    await child.status;
    clearTimeout(timer);
    this.#died(child, "closed");
  }

  /**
   * The strip's list. spec: browser_tabs {profile, id, up, connected, closing_at_ms, rows}; plus
   * `audio_off`, why an up host has no page audio (said in its state,
   * not only logged), else null.
   */
  list() {
    return {
      profile: this.key,
      id: this.id,
      up: this.up,
      connected: this.up,
      closing_at_ms: this.up ? this.closingAt : null,
      audio_off: this.up ? this.audioNote : null,
      rows: [...this.tabs.values()].map((t) => t.row()),
    };
  }
}
