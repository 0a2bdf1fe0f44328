import type {
  BrowserFrame,
  BrowserGesture,
  BrowserTabList,
  ServerMessage,
  Slot,
} from "../../../../protocol/mod.ts";
import {
  BrowserTabsReply,
  BrowserViewReply,
  decodeBrowserAudio,
  decodeBrowserFrame,
  sameSlot,
} from "../../../../protocol/mod.ts";
import { PcmPlayer } from "../audio/pcm_player.ts";
import { fromBase64 } from "./base64.ts";
import type { ClientCore } from "./client_core.ts";
import { narrow } from "./narrow.ts";
import type { BrowserPanel, BrowserRow } from "./store.ts";
import { lostWords } from "./replies.ts";

// The verbs' replies are read with protocol/'s schemas (verb_replies.ts), the ones the server
// builds them with; a body off its schema is said in words, as a refusal is.

/** Where the frames are drawn: the canvas registers one. */
export interface BrowserSink {
  frame(f: BrowserFrame): void;
}

/** Downloads the panel keeps offering; an older one's blob URL is let go. */
const KEEP_DOWNLOADS = 5;

/**
 * The seat's browser over the socket: `browser_tabs` asks the strip (the ask is the
 * subscription), `browser_view` attaches one tab, kind-1 frames go to the canvas, and this page's
 * gestures, size, history moves and file answers go out only while it holds the role.
 * spec: browser_view .. browser_tabs; Binary messages > 1.
 */
export class BrowserWire {
  #sink: BrowserSink | null = null;
  /** The profile the strip answered for; a push for another (an older seat's) is not ours. */
  #profile: string | null = null;
  /** The page's own input order; never reset, so no later gesture sits at or below an old one. */
  #seq = 0;
  /** The tab numbers the strip held when an open_url went out: a new one is attached. */
  #opening: Set<number> | null = null;
  #attachGen = 0;
  #sized = "";
  /** A hand-off's page to attach once the panel opens (its Open was pressed elsewhere). */
  #wantPage: string | null = null;
  /**
   * The panel was attached when the socket went: it attaches again, starting the host, until an
   * attach lands (a socket that went again before one did still owes it).
   */
  #reattach = false;
  /** It held the role when the socket went: taken again unless someone took it meanwhile. */
  #regain = false;
  /** The page's own sound (kind 2), for the controller. */
  readonly sound = new PcmPlayer();

  constructor(private readonly client: ClientCore) {}

  get #p(): BrowserPanel | null {
    return this.client.state.browser;
  }

  /** The panel opens on `seat`: ask the strip, then attach a tab when the host runs. */
  open(seat: Slot, sink: BrowserSink): void {
    this.#sink = sink;
    const old = this.#p && sameSlot(this.#p.seat, seat) ? this.#p : null;
    this.client.state.browser = {
      seat,
      up: null,
      rows: old?.rows ?? [],
      want: old?.want ?? null,
      view: null,
      nav: null,
      failed: null,
      dialog: null,
      downloads: old?.downloads ?? [],
    };
    this.#sized = "";
    const p0 = this.client.state.browser;
    void this.client.ask((reply_to) => ({ kind: "browser_tabs", seat, reply_to })).then((b) => {
      const p = this.#p;
      if (!p || !sameSlot(p.seat, seat)) return;
      const body = narrow(BrowserTabsReply, "browser_tabs's reply", b);
      if (!body.ok) {
        p.failed = body.why;
      } else if (!body.data.ok) {
        p.failed = body.data.why;
      } else {
        this.#tabs(body.data.tabs);
        const want = p.want !== null && p.rows.some((r) => r.number === p.want) ? p.want : null;
        const page = this.#wantPage;
        this.#wantPage = null;
        // The viewer died with the socket (spec: browser_view); a host that died with forge is
        // started again by the attach, as a person's Start does.
        if (page) void this.viewPage(seat, page);
        else if (p.up || this.#reattach) this.view(want ?? undefined);
      }
      this.client.store.changed();
    }, (err) => {
      if (this.#p !== p0) return;
      p0.failed = lostWords(err);
      this.client.store.changed();
    });
  }

  /** Attaches a tab (omitted: the seat's current one, starting the host if it is down). */
  view(tab?: number): void {
    const p = this.#p;
    if (!p) return;
    const gen = ++this.#attachGen;
    p.want = tab ?? null;
    p.view = null;
    p.nav = null;
    p.failed = null;
    p.dialog = null;
    this.#sized = "";
    this.client.store.changed();
    void this.client.ask((reply_to) => ({ kind: "browser_view", seat: p.seat, tab, reply_to }))
      .then((b) => {
        if (gen !== this.#attachGen || this.#p !== p) return;
        const body = narrow(BrowserViewReply, "browser_view's reply", b);
        if (!body.ok) p.failed = body.why;
        else if (body.data.ok) p.want = body.data.tab;
        else p.failed = body.data.why;
        this.client.store.changed();
      }, (err) => {
        if (gen !== this.#attachGen || this.#p !== p) return;
        p.failed = lostWords(err);
        this.client.store.changed();
      });
  }

  /** Opens `url` in a new tab of the seat's profile and attaches it once the strip shows it. */
  openUrl(url: string): void {
    const p = this.#p;
    if (!p) return;
    this.#opening = new Set(p.rows.map((r) => r.number));
    this.client.command("open_url", { url });
  }

  /** The panel is lowered: the attach is let go so the viewer count and idle clock see it. */
  close(): void {
    const p = this.#p;
    if (!p) return;
    this.#sink = null;
    this.#opening = null;
    this.#reattach = this.#regain = false;
    ++this.#attachGen;
    this.client.send({ kind: "browser_detach" });
    for (const d of p.downloads) if (d.href) URL.revokeObjectURL(d.href);
    this.client.state.browser = null;
  }

  /** The socket went down: the attach died with it; the view attaches again when it is back. */
  lost(): void {
    const p = this.#p;
    if (!p) return;
    // A take sent after the last drop and not answered yet is still owed (#regain stays).
    if (p.view) {
      this.#reattach = true;
      this.#regain ||= p.view.controller === p.view.viewer;
    }
    p.view = null;
    p.nav = null;
    p.dialog = null;
  }

  get mine(): boolean {
    const v = this.#p?.view;
    return !!v && v.controller === v.viewer;
  }

  /** Takes or gives back the role; a take opens the sound from the person's own click. */
  control(take: boolean): void {
    this.#regain = false; // the person's own word from here
    if (take) this.sound.open();
    else this.sound.close();
    this.client.send({ kind: "browser_control", take });
  }

  /**
   * A hand-off's Open: attaches the page by the CDP target id the ask carries, because a tab
   * number names another tab after a host replacement. spec: browser_view_page.
   */
  viewPage(seat: Slot, target: string): Promise<string | null> {
    const p = this.#p;
    if (!p || !sameSlot(p.seat, seat)) {
      // The panel is not open yet: it attaches this page once the strip has answered.
      this.#wantPage = target;
      return Promise.resolve(null);
    }
    const gen = ++this.#attachGen;
    p.view = null;
    p.failed = null;
    this.#sized = "";
    return this.client.ask((reply_to) => ({ kind: "browser_view_page", seat, target, reply_to }))
      .then((body) => {
        const reply = narrow(BrowserViewReply, "browser_view_page's reply", body);
        if (!reply.ok) return reply.why;
        if (gen !== this.#attachGen || this.#p !== p) return null;
        if (reply.data.ok) p.want = reply.data.tab;
        else p.failed = reply.data.why;
        this.client.store.changed();
        return reply.data.ok ? null : reply.data.why;
      }, (err) => lostWords(err));
  }

  nav(back: boolean): void {
    if (this.mine) this.client.send({ kind: "browser_nav", back });
  }

  /** The canvas's size in device pixels; sent while this page drives (spec: browser_resize). */
  resize(width: number, height: number, scale: number): void {
    const key = `${width}x${height}@${scale}`;
    if (!this.mine || width < 1 || height < 1 || key === this.#sized) return;
    this.#sized = key;
    this.client.send({ kind: "browser_resize", width, height, scale });
  }

  /** Sends a gesture while this page drives; says whether it went (a watcher's goes nowhere). */
  input(event: BrowserGesture): boolean {
    if (!this.mine) return false;
    return this.client.send({ kind: "browser_input", seq: ++this.#seq, event });
  }

  /** Answers the page's chooser; an empty list dismisses it (spec: browser_file_answer). */
  answerFiles(files: { name: string; data: string }[]): void {
    const d = this.#p?.dialog;
    if (!d) return;
    this.#p!.dialog = null;
    this.client.send({ kind: "browser_file_answer", id: d.id, files });
    this.client.store.changed();
  }

  message(m: ServerMessage): void {
    const p = this.#p;
    if (!p) return;
    if (m.kind === "browser_tabs") {
      if (m.profile === this.#profile) this.#tabs(m);
    } else if (m.kind === "browser_view") {
      // A switch lets the old tab go; its last words (a viewer count) are not this view's.
      if (p.want !== null && m.tab !== p.want) return;
      const { id, tab, controller, viewers, viewer } = m;
      const landed = p.view === null;
      p.view = { id, tab, controller, viewers, viewer };
      this.#reattach = false;
      if (this.#regain && controller === viewer) this.#regain = false;
      else if (landed && this.#regain) this.#takeBack(p.seat, controller);
      p.want = tab;
      p.failed = null;
      if (controller !== viewer) this.#sized = "";
    } else if (m.kind === "browser_nav_state") {
      if (m.tab === p.want) p.nav = { can_back: m.can_back, can_forward: m.can_forward };
    } else if (m.kind === "browser_surface_failed") {
      if (m.tab === p.want) p.failed = `The browser stopped: ${m.reason}`;
    } else if (m.kind === "browser_file_dialog") {
      p.dialog = { id: m.id, tab: m.tab, multiple: m.multiple };
    } else if (m.kind === "browser_download") {
      this.#download(p, m);
    }
  }

  /** A kind-1 frame: handed on when it is the attached tab's (the canvas keeps only the newest). */
  frame(bytes: Uint8Array): void {
    const v = this.#p?.view;
    const d = decodeBrowserFrame(bytes);
    if (!v || !d.ok || d.frame.profile !== v.id || d.frame.tab !== v.tab) return;
    this.#sink?.frame(d.frame);
  }

  /** A kind-2 packet: the viewed tab's sound, played while this page drives (spec: kind 2). */
  audio(bytes: Uint8Array): void {
    const v = this.#p?.view;
    const d = decodeBrowserAudio(bytes);
    if (!v || !d.ok || !this.mine || d.audio.profile !== v.id || d.audio.tab !== v.tab) return;
    // A packet behind the picture is dropped rather than queued (spec: kind 2).
    this.sound.play(d.audio.seq, d.audio.rate, d.audio.channels, d.audio.samples, 0.25);
  }

  /**
   * The role this page held before the socket went, on the attach that followed: taken again
   * when nobody holds it, never from one who took it meanwhile (a take always lands).
   * spec: browser_control.
   */
  #takeBack(seat: Slot, controller: number | null): void {
    if (controller === null) return void this.client.send({ kind: "browser_control", take: true });
    this.#regain = false;
    this.client.note({
      kind: "error",
      what: "browser_control",
      why:
        `You had this tab's control before the connection dropped; viewer ${controller} took it meanwhile`,
      seat,
      dispatch_id: null,
    });
  }

  #tabs(list: BrowserTabList): void {
    const p = this.#p!;
    this.#profile = list.profile;
    p.up = list.up;
    p.rows = list.rows.map((r): BrowserRow => ({
      number: r.number,
      title: r.title,
      url: r.url,
      state: r.state,
    }));
    // A new tab opens blank and then navigates (as does a host's boot tab): the first new row
    // that left the blank page is the one the person asked for.
    const fresh = this.#opening &&
      p.rows.find((r) => !this.#opening!.has(r.number) && r.url !== "" && r.url !== "about:blank");
    if (fresh) {
      this.#opening = null;
      this.view(fresh.number);
    }
  }

  #download(p: BrowserPanel, m: ServerMessage & { kind: "browser_download" }): void {
    let error = m.error;
    if (m.dropped) {
      const n = m.lost ?? 1;
      error = `${n === 1 ? "a download was" : `${n} downloads were`} lost before this page read it`;
    }
    const href = error === null && m.data !== null
      ? URL.createObjectURL(new Blob([fromBase64(m.data)]))
      : null;
    p.downloads = [...p.downloads, { name: m.name, href, error, at: Date.now() }];
    for (const d of p.downloads.splice(0, p.downloads.length - KEEP_DOWNLOADS)) {
      if (d.href) URL.revokeObjectURL(d.href);
    }
  }
}
