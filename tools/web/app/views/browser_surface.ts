import type { BrowserFrame, BrowserGesture } from "../../../../protocol/mod.ts";

type Modifier = "alt" | "ctrl" | "meta" | "shift";

/** The modifier keys an event holds, in the gesture's words. */
function modifiers(e: MouseEvent | KeyboardEvent): Modifier[] | undefined {
  const held: Modifier[] = [];
  if (e.altKey) held.push("alt");
  if (e.ctrlKey) held.push("ctrl");
  if (e.metaKey) held.push("meta");
  if (e.shiftKey) held.push("shift");
  return held.length > 0 ? held : undefined;
}

const BUTTONS = ["left", "middle", "right"] as const;
/** Keys that only modify another: sent with the key they modify, never alone. */
/** How long a left press waits for a second one before it crosses as a single click. */
const DOUBLE_CLICK_MS = 250;
const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock", "AltGraph"]);

/**
 * The canvas the frames are drawn on. Only the newest frame is ever decoded next: one that
 * arrives while another decodes replaces the waiting one rather than queueing behind it (spec:
 * Binary messages > 1, "served the newest frame rather than a queue"). The picture is letterboxed
 * into the canvas, and a gesture is mapped from the pixel it lands on to the page's own viewport
 * the frame's header names, so a press lands on what the person sees.
 */
export class Surface {
  #next: BrowserFrame | null = null;
  #busy = false;
  #shown: ImageBitmap | null = null;
  #page = { w: 0, h: 0 };
  /** Where the picture sits in the canvas, in CSS pixels. */
  #rect = { x: 0, y: 0, w: 0, h: 0 };
  #moved: { x: number; y: number; modifiers?: Modifier[] } | null = null;
  #observer: ResizeObserver;
  #off: (() => void)[] = [];
  /** A left press waiting out the double-click window; a key or wheel sends it at once. */
  #pendingPress: { timer: ReturnType<typeof setTimeout>; flush: () => void } | null = null;
  closed = false;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    /** The canvas's device-pixel size changed. */
    private readonly onSize: (width: number, height: number, scale: number) => void,
    /** Sends a gesture; false when it went nowhere (a watcher's), so the browser keeps it. */
    private readonly send: (g: BrowserGesture) => boolean,
  ) {
    this.#observer = new ResizeObserver(() => this.#fit());
    this.#observer.observe(canvas);
    this.#listen();
  }

  frame(f: BrowserFrame): void {
    this.#next = f;
    if (!this.#busy) void this.#pump();
  }

  /** The canvas's size now, for a take that wants to lay the page out to it at once. */
  size(): { width: number; height: number; scale: number } {
    const scale = devicePixelRatio || 1;
    return { width: this.canvas.width, height: this.canvas.height, scale };
  }

  dispose(): void {
    this.closed = true;
    if (this.#pendingPress) clearTimeout(this.#pendingPress.timer);
    this.#observer.disconnect();
    for (const off of this.#off) off();
    this.#shown?.close();
  }

  async #pump(): Promise<void> {
    this.#busy = true;
    while (this.#next && !this.closed) {
      const f = this.#next;
      this.#next = null;
      try {
        const blob = new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: "image/webp" });
        const bitmap = await createImageBitmap(blob);
        this.#shown?.close();
        this.#shown = bitmap;
        this.#page = { w: f.pageWidth, h: f.pageHeight };
        this.canvas.dataset.seq = String(f.seq);
        this.canvas.dataset.page = `${f.pageWidth}x${f.pageHeight}`;
        this.canvas.dataset.frame = `${bitmap.width}x${bitmap.height}`;
        this.#draw();
      } catch {
        // A frame that does not decode is skipped: the next one supersedes it anyway.
      }
    }
    this.#busy = false;
  }

  #fit(): void {
    const scale = devicePixelRatio || 1;
    const w = Math.round(this.canvas.clientWidth * scale);
    const h = Math.round(this.canvas.clientHeight * scale);
    if (w < 1 || h < 1) return;
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      this.#draw();
    }
    this.onSize(w, h, scale);
  }

  #draw(): void {
    const ctx = this.canvas.getContext("2d");
    const bmp = this.#shown;
    if (!ctx || !bmp) return;
    const cw = this.canvas.width, ch = this.canvas.height;
    const k = Math.min(cw / bmp.width, ch / bmp.height);
    const w = bmp.width * k, h = bmp.height * k;
    const x = (cw - w) / 2, y = (ch - h) / 2;
    ctx.fillStyle = "#2a2b2f";
    ctx.fillRect(0, 0, cw, ch);
    ctx.drawImage(bmp, x, y, w, h);
    const css = this.canvas.clientWidth / cw;
    this.#rect = { x: x * css, y: y * css, w: w * css, h: h * css };
  }

  /** The page-viewport point under a mouse event, or null off the picture. */
  #point(e: MouseEvent): { x: number; y: number } | null {
    const r = this.#rect;
    const px = e.offsetX - r.x, py = e.offsetY - r.y;
    if (r.w <= 0 || px < 0 || py < 0 || px > r.w || py > r.h) return null;
    return {
      x: Math.round(px / r.w * this.#page.w),
      y: Math.round(py / r.h * this.#page.h),
    };
  }

  /** A press still waiting goes first: a key after a click lands where the click put focus. */
  #sendPress(): void {
    const p = this.#pendingPress;
    if (!p) return;
    clearTimeout(p.timer);
    p.flush();
  }

  #on<K extends keyof HTMLElementEventMap>(
    type: K,
    fn: (e: HTMLElementEventMap[K]) => void,
  ): void {
    // Not passive: a wheel or key the page takes must not also scroll this one.
    this.canvas.addEventListener(type, fn, { passive: false });
    this.#off.push(() => this.canvas.removeEventListener(type, fn));
  }

  #listen(): void {
    // A press is a whole click on the host (spec: browser_input "a press"). A left press waits
    // out the double-click window, so a double-click crosses as ONE press of two clicks (the
    // host then fires one dblclick, as a local page would) rather than as two single clicks.
    this.#on("mousedown", (e) => {
      this.canvas.focus();
      const p = this.#point(e);
      if (!p) return;
      e.preventDefault();
      const press = {
        type: "press" as const,
        ...p,
        button: BUTTONS[e.button] ?? "left",
        modifiers: modifiers(e),
      };
      const waiting = this.#pendingPress;
      this.#pendingPress = null;
      if (waiting) clearTimeout(waiting.timer);
      if (press.button !== "left") return void this.send(press);
      if (waiting && e.detail >= 2) return void this.send({ ...press, clicks: 2 });
      const flush = () => {
        this.#pendingPress = null;
        this.send(press);
      };
      this.#pendingPress = { timer: setTimeout(flush, DOUBLE_CLICK_MS), flush };
    });
    this.#on("contextmenu", (e) => e.preventDefault());
    // Moves are a stream: one per animation frame at most, the latest position.
    this.#on("mousemove", (e) => {
      const p = this.#point(e);
      if (!p) return;
      const first = this.#moved === null;
      this.#moved = { ...p, modifiers: modifiers(e) };
      if (first) {
        requestAnimationFrame(() => {
          const m = this.#moved;
          this.#moved = null;
          if (m && !this.closed) this.send({ type: "move", ...m });
        });
      }
    });
    this.#on("wheel", (e) => {
      const p = this.#point(e);
      if (!p) return;
      const g = { type: "wheel" as const, ...p, dx: e.deltaX, dy: e.deltaY };
      this.#sendPress();
      if (this.send({ ...g, modifiers: modifiers(e) })) e.preventDefault();
    });
    this.#on("keydown", (e) => {
      if (MODIFIER_KEYS.has(e.key) || e.isComposing) return;
      // A paste is left to run: it arrives as the paste event's text below.
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "v") return;
      this.#sendPress();
      if (this.send({ type: "key", key: e.key, modifiers: modifiers(e) })) e.preventDefault();
    });
    this.#on("paste", (e) => {
      const text = e.clipboardData?.getData("text/plain");
      this.#sendPress();
      if (text && this.send({ type: "text", text })) e.preventDefault();
    });
  }
}
