import { encodeBrowserFrame } from "../../protocol/mod.ts";
import type { Cdp, CdpBody } from "./cdp.ts";
import type { TabViewers } from "./viewers.ts";
import { webpSize } from "./webp.ts";

/** The page's layout: CSS pixels and the ratio they draw at. spec: browser_resize. */
export interface Layout {
  width: number;
  height: number;
  scale: number;
}

/** What a tab's picture needs of the tab. */
export interface CastDeps {
  cdp: Cdp;
  /** The tab's CDP session. */
  session: string;
  profileId: number;
  /** The tab's number in its profile's strip. */
  tab: number;
  viewers: TabViewers;
}

function b64bytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * A tab's picture: the CDP screencast in WebP relayed to its viewers byte for byte with a per-tab
 * seq, full-quality stills as key frames, and the layout the page is painted at. Layout and cast
 * changes run one at a time. spec: browser_view, browser_resize.
 */
export class TabCast {
  layout: Layout = { width: 1280, height: 720, scale: 1 };
  /** The last frame-relay time, for the bench's input-to-next-frame read. */
  lastFrameAt = 0;
  #seq = 0;
  #kept: { bytes: Uint8Array; width: number; height: number; pw: number; ph: number } | null = null;
  #casting = false;
  #firstCast = true;
  #castTries = 0;
  #castRetry: ReturnType<typeof setTimeout> | undefined;
  #layoutChain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: CastDeps) {}

  /** One `Page.screencastFrame`: acked, kept, and relayed to every viewer. */
  frame(p: CdpBody): void {
    this.deps.cdp.send("Page.screencastFrameAck", { sessionId: p.sessionId }, this.deps.session)
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
    this.deps.viewers.frame(
      encodeBrowserFrame({
        profile: this.deps.profileId,
        tab: this.deps.tab,
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
      if (this.deps.viewers.size > 0) void this.#serial(() => this.#castAndStill()).catch(() => {});
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
    const shot = await this.deps.cdp.send("Page.captureScreenshot", {
      format: "webp",
      quality: 90,
    }, this.deps.session).catch(() => null); // a tab mid-navigation has no still: answered false
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
    const started = await this.deps.cdp.send("Page.startScreencast", {
      format: "webp",
      quality: 60,
      maxWidth: Math.round(this.layout.width * this.layout.scale),
      maxHeight: Math.round(this.layout.height * this.layout.scale),
      everyNthFrame: 1,
    }, this.deps.session).then(() => true, () => false);
    if (!started) this.#casting = false;
    return started;
  }

  /** Stops painting for nobody: a tab with no viewer costs no encoding. */
  async stopCastIfUnwatched(): Promise<void> {
    if (!this.#casting || this.deps.viewers.size > 0) return;
    this.#casting = false;
    // Stopping a cast the tab already ended (it closed) changes nothing.
    await this.deps.cdp.send("Page.stopScreencast", {}, this.deps.session).catch(() => {});
  }

  /** Lays the page out at `l`; a size it already has asks nothing. Then a key frame at it. */
  resize(l: Layout): Promise<void> {
    return this.#serial(() => this.#resizeNow(l));
  }

  async #resizeNow(l: Layout): Promise<void> {
    const same = l.width === this.layout.width && l.height === this.layout.height &&
      l.scale === this.layout.scale;
    if (same) return;
    await this.applyLayout(l);
    if (!this.#casting) {
      await this.captureKeyFrame();
      return;
    }
    this.#casting = false;
    // As above: a cast already over needs no stop.
    await this.deps.cdp.send("Page.stopScreencast", {}, this.deps.session).catch(() => {});
    await this.#castAndStill();
  }

  /** Lays the page out at `l` now, outside the chain (a tab's first layout). */
  async applyLayout(l: Layout): Promise<void> {
    this.layout = l;
    await this.deps.cdp.send("Emulation.setDeviceMetricsOverride", {
      width: l.width,
      height: l.height,
      deviceScaleFactor: l.scale,
      mobile: false,
    }, this.deps.session);
  }
}
