import { browserWords } from "./words.ts";
import {
  type BrowserViewReply,
  type ClientMessageOf,
  type Slot,
  slotName,
} from "../../protocol/mod.ts";
import { onEachClose } from "../../server/close_hook.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import { dispatchGesture } from "./input.ts";
import type { BrowserHost } from "./host.ts";
import type { Profiles } from "./profiles.ts";
import type { Tab } from "./tab.ts";

/** What one connection views: one tab of one profile at a time. spec: browser_view. */
export interface Attachment {
  browser: BrowserHost;
  tab: Tab;
  viewer: number;
  seat: Slot;
}

/** The tabs open now, in words, for a refusal. */
function openNow(browser: BrowserHost): string {
  const n = [...browser.tabs.keys()];
  return n.length === 0 ? "no tabs are open" : `the tabs open now are ${n.join(", ")}`;
}

/**
 * The viewer half of the browser (spec: browser_view .. browser_nav): attach, re-attach and
 * switch with their records, the controller role, the layout owner, input from the controller
 * ordered by seq. Each connection has at most one attachment.
 */
export class Surfaces {
  readonly attached = new Map<number, Attachment>();
  /** Per tab, the input chain: gestures land in the order their seq allowed them. */
  #chains = new WeakMap<Tab, Promise<void>>();
  /** Called when a take lands: deliver what waited for a controller (downloads, a chooser). */
  onTake: (a: Attachment, peer: Peer) => void = () => {};
  /** Once per connection: an attach after a detach would otherwise add a handler each time. */
  readonly #detachOnClose = onEachClose((peer) => this.detach(peer, "connection_closed"));

  constructor(private readonly host: Host, private readonly profiles: Profiles) {}

  #record(event: string, fields: Record<string, unknown>): void {
    this.host.log.info(event, fields);
  }

  /** Lets this connection's tab go (and the role with it); records a release that held it. */
  detach(peer: Peer, why = "detach"): Attachment | null {
    const a = this.attached.get(peer.id);
    if (!a) return null;
    this.attached.delete(peer.id);
    if (a.tab.viewers.detach(a.viewer)) {
      this.#record("browser_role_released", {
        conn: peer.id,
        profile: a.browser.key,
        tab: a.tab.number,
        why,
      });
      void this.#relayout(a.tab);
    }
    void a.tab.stopCastIfUnwatched();
    a.browser.touch();
    return a;
  }

  /** browser_view / browser_view_page: resolve, then attach or refuse (both recorded). */
  async view(
    peer: Peer,
    verb: "browser_view" | "browser_view_page",
    seat: Slot,
    pick: (browser: BrowserHost) => Tab | string,
    replyTo: number | null | undefined,
    start: boolean,
  ): Promise<void> {
    const answer = (body: BrowserViewReply) => {
      if (replyTo != null) peer.send({ kind: "reply", reply_to: replyTo, body });
    };
    const refuse = (why: string, asked: unknown) => {
      const left = this.detach(peer, "attach_refused");
      this.#record("browser_attach_refused", {
        conn: peer.id,
        asked,
        left: left ? { profile: left.browser.key, tab: left.tab.number } : null,
        why,
      });
      if (replyTo == null) throw new Refusal(verb, `${verb}: ${why}`, seat);
      answer({ ok: false, why });
    };
    let browser: BrowserHost;
    try {
      browser = this.profiles.forSeat(seat);
      if (start) await browser.ensureUp();
    } catch (err) {
      return refuse(`the browser could not start: ${browserWords(err, this.host.log)}`, null);
    }
    const picked = pick(browser);
    if (typeof picked === "string") return refuse(picked, null);
    const tab = picked;
    const prev = this.attached.get(peer.id);
    const same = prev !== undefined && prev.browser === browser && prev.tab === tab;
    if (prev && !same) this.detach(peer, "switch");
    answer({ ok: true, profile: browser.key, tab: tab.number });
    const { viewer } = same ? { viewer: prev.viewer } : tab.viewers.attach({
      conn: peer.id,
      send: (m) => peer.send(m),
      sendBinary: (b) => peer.sendBinary(b),
      buffered: () => peer.buffered(),
    });
    if (same) tab.viewers.announce();
    const attachment = { browser, tab, viewer, seat };
    this.attached.set(peer.id, attachment);
    this.#detachOnClose(peer);
    this.#record("browser_attach", {
      conn: peer.id,
      profile: browser.key,
      tab: tab.number,
      from_profile: prev?.browser.key ?? null,
      from_tab: prev?.tab.number ?? null,
      same_surface: same,
    });
    browser.touch();
    peer.send(await tab.navState());
    // The fresh key frame follows when the page can paint one; the connection's next message
    // never waits on it (a page dialog holds a screenshot until it closes).
    void tab.keyFrameFor(viewer).catch(() => {});
  }

  /** The tab a number-addressed attach names. */
  pickByNumber(seat: Slot, n: number | undefined): (b: BrowserHost) => Tab | string {
    return (b) => {
      if (n !== undefined) return b.tabs.get(n) ?? `tab ${n} is not open; ${openNow(b)}`;
      const mine = b.current.get(slotName(seat));
      const tab = (mine !== undefined ? b.tabs.get(mine) : undefined) ??
        b.tabs.values().next().value;
      return tab ?? `no tab is open in ${b.key}`;
    };
  }

  /** The tab a page-addressed attach (a hand-off's Open) names. */
  pickByTarget(target: string): (b: BrowserHost) => Tab | string {
    return (b) => b.byTarget(target) ?? `page ${target} is gone; ${openNow(b)}`;
  }

  /** The connection's attachment, or a refusal naming the verb. */
  #mine(peer: Peer, verb: string): Attachment {
    const a = this.attached.get(peer.id);
    if (!a) throw new Refusal(verb, `${verb}: this connection is not attached to a browser tab`);
    return a;
  }

  async resize(peer: Peer, m: ClientMessageOf<"browser_resize">): Promise<void> {
    const a = this.#mine(peer, "browser_resize");
    const size = a.tab.viewers.resize(a.viewer, m);
    if (size) await a.tab.resize(cssLayout(size));
  }

  async #relayout(tab: Tab): Promise<void> {
    const size = tab.viewers.ownerSize();
    if (size) {
      await tab.resize(cssLayout(size)).catch((error) =>
        this.host.log.debug("browser_relayout_failed", { tab: tab.number, error })
      );
    }
  }

  control(peer: Peer, take: boolean): void {
    const a = this.attached.get(peer.id);
    if (!a) {
      const reason = "this connection is not attached to a browser tab";
      this.#record("browser_control_unattached", {
        conn: peer.id,
        take,
        has_browser: [...this.profiles.hosts.values()].some((h) => h.up),
        reason,
      });
      throw new Refusal("browser_control", `browser_control: ${reason}`);
    }
    const where = { conn: peer.id, profile: a.browser.key, tab: a.tab.number };
    if (a.browser.tabs.get(a.tab.number) !== a.tab) {
      const reason = `tab ${a.tab.number} is no longer open`;
      this.#record("browser_control", { ...where, take, landed: false, reason });
      throw new Refusal("browser_control", `browser_control: ${reason}`, a.seat);
    }
    const { released } = a.tab.viewers.control(a.viewer, take);
    if (take) {
      this.#record("browser_control", { ...where, take, landed: true });
      void this.#relayout(a.tab);
      this.onTake(a, peer);
    } else if (released) {
      this.#record("browser_role_released", { ...where, why: "release" });
      void this.#relayout(a.tab);
    }
  }

  input(peer: Peer, m: ClientMessageOf<"browser_input">): void {
    // The envelope read the gesture (protocol/client.ts), so a bad one never reaches here.
    const g = m.event;
    const a = this.attached.get(peer.id);
    // A typed text is recorded by its length only: this browser signs people in.
    const what = g.type === "text" ? { kind: "text", chars: [...g.text].length } : { kind: g.type };
    if (!a) {
      if (g.type === "move") return;
      this.#record("browser_input_unattached", { conn: peer.id, ...what });
      throw new Refusal("browser_input", "browser_input: this connection is not attached");
    }
    if (a.tab.viewers.controller !== a.viewer) {
      if (g.type !== "move") {
        this.#record("browser_input_refused", {
          conn: peer.id,
          profile: a.browser.key,
          tab: a.tab.number,
          ...what,
        });
      }
      throw new Refusal(
        "browser_input",
        "browser_input: this viewer does not hold the controller role; take it first",
        a.seat,
      );
    }
    if (m.seq <= a.tab.viewers.lastSeq) return;
    a.tab.viewers.lastSeq = m.seq;
    a.browser.touch();
    const cdp = a.browser.cdp;
    if (!cdp) return;
    const prev = this.#chains.get(a.tab) ?? Promise.resolve();
    this.#chains.set(
      a.tab,
      prev.then(() => a.tab.inputUnlessDialog(dispatchGesture(cdp, a.tab.session, g))).catch((
        err,
      ) => this.host.log.debug("browser_input_failed", { tab: a.tab.number, why: String(err) })),
    );
  }

  async nav(peer: Peer, back: boolean): Promise<void> {
    const a = this.#mine(peer, "browser_nav");
    if (a.tab.viewers.controller !== a.viewer) {
      throw new Refusal(
        "browser_nav",
        "browser_nav: only the controller moves the page; take the role first",
        a.seat,
      );
    }
    await a.tab.go(back);
    peer.send(await a.tab.navState());
  }
}

/** A surface's device pixels and ratio as the page's CSS layout. */
function cssLayout(s: { width: number; height: number; scale: number }) {
  return {
    width: Math.max(1, Math.round(s.width / s.scale)),
    height: Math.max(1, Math.round(s.height / s.scale)),
    scale: s.scale,
  };
}
