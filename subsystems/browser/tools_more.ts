import type { ToolHandler } from "../../server/subsystem.ts";
import type { CdpBody } from "./cdp.ts";
import { centre, evaluate, find, onElement, type Page, PageError, snapshot } from "./page_ops.ts";
import { after, output, type PageFn } from "./page_tool.ts";
import { FORM_STATE_JS } from "./snapshot.ts";
import type { Tab } from "./tab.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Mouse moves between a drag's ends: pages that track the pointer see a path, not a jump. */
const DRAG_STEPS = 8;

/** browser__emulate_media's argument → the CSS media feature it sets. */
const FEATURES: Record<string, string> = {
  colorScheme: "prefers-color-scheme",
  reducedMotion: "prefers-reduced-motion",
  forcedColors: "forced-colors",
  contrast: "prefers-contrast",
};
/** Each tab's emulated media: one call sets all of it, so omitted arguments keep theirs. */
const emulated = new WeakMap<Tab, Record<string, string>>();

/** `/pattern/flags` (spec mcp_tools.md §5 browser_find) as a RegExp, or a PageError naming why not. */
export function parseRegex(src: string): RegExp {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(src);
  if (!m) throw new PageError(`regex ${JSON.stringify(src)} is not written /pattern/flags`);
  try {
    // g and y make test() stateful across lines; a search wants neither.
    return new RegExp(m[1], m[2].replace(/[gy]/g, ""));
  } catch {
    // The engine's parser words stay out: the pattern and that it does not compile are the reason.
    throw new PageError(`regex ${src} is not a valid regular expression`);
  }
}

/** A button-held mouse move (CDP needs `buttons` for the page to see the press held). */
const move = (p: Page, x: number, y: number, held: boolean) =>
  p.cdp.send("Input.dispatchMouseEvent", {
    type: "mouseMoved",
    x,
    y,
    ...(held ? { button: "left", buttons: 1 } : {}),
  }, p.tab.session);

/**
 * Drags with the real mouse: press on the start, move, release on the end. A page that starts an
 * HTML5 drag (a `draggable` element) is caught with Input.setInterceptDrags and finished with
 * Input.dispatchDragEvent, as Playwright's Chromium driver does: a headless browser has no OS drag
 * loop to carry it otherwise.
 */
async function drag(p: Page, from: { x: number; y: number }, toEl: string): Promise<void> {
  const s = p.tab.session;
  let data: CdpBody | null = null;
  const stop = p.tab.listen((method, e) => {
    if (method === "Input.dragIntercepted") data = e.data as CdpBody;
  });
  try {
    await move(p, from.x, from.y, false);
    await p.cdp.send("Input.dispatchMouseEvent", {
      type: "mousePressed",
      x: from.x,
      y: from.y,
      button: "left",
      buttons: 1,
      clickCount: 1,
    }, s);
    await p.cdp.send("Input.setInterceptDrags", { enabled: true }, s);
    // Past Chromium's drag threshold, then a frame for a drag to start (and be intercepted).
    await move(p, from.x + 6, from.y + 6, true);
    await p.cdp.send("Runtime.evaluate", {
      expression: "new Promise((r) => requestAnimationFrame(() => r(0)))",
      awaitPromise: true,
    }, s);
    await sleep(50);
    await p.cdp.send("Input.setInterceptDrags", { enabled: false }, s);
    const to = await centre(p, toEl);
    if (data) {
      for (const type of ["dragEnter", "dragOver", "drop"]) {
        await p.cdp.send("Input.dispatchDragEvent", { type, x: to.x, y: to.y, data }, s);
      }
    } else {
      for (let k = 1; k <= DRAG_STEPS; k++) {
        const t = k / DRAG_STEPS;
        await move(p, from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t, true);
      }
    }
    await p.cdp.send("Input.dispatchMouseEvent", {
      type: "mouseReleased",
      x: to.x,
      y: to.y,
      button: "left",
      clickCount: 1,
    }, s);
  } finally {
    stop();
  }
}

/** find, drag, resize, emulate_media and form_state (spec mcp_tools.md §5). */
export function moreTools(onPage: (fn: PageFn) => ToolHandler): Record<string, ToolHandler> {
  return {
    browser__find: onPage(async (p, i, call) => {
      const hasText = typeof i.text === "string", hasRe = typeof i.regex === "string";
      if (hasText === hasRe) {
        throw new PageError("browser__find needs exactly one of `text` or `regex`");
      }
      const re = hasRe ? parseRegex(String(i.regex)) : null;
      const needle = String(i.text ?? "").toLowerCase();
      // A fresh snapshot (so the refs returned are live), of which only the hits are returned.
      const [url, title, , ...lines] = (await snapshot(p)).split("\n");
      const hits = lines.filter((l) => re ? re.test(l) : l.toLowerCase().includes(needle))
        .map((l) => `- ${l.trim().replace(/^- /, "")}`);
      const what = re ? `regex ${i.regex}` : `text ${JSON.stringify(i.text)}`;
      const text = `${url}\n${title}\n- ${hits.length} of ${lines.length} snapshot lines match ` +
        `${what}${hits.length ? ":" : ""}\n${hits.join("\n")}`;
      return await output(text.trimEnd(), i, call);
    }),
    browser__drag: onPage(async (p, i) => {
      // Both ends are found before the mouse goes down: a bad ref presses nothing.
      const start = await find(p, String(i.startTarget));
      const end = await find(p, String(i.endTarget));
      await p.tab.inputUnlessDialog(drag(p, await centre(p, start), end));
      return await after(
        p,
        `Dragged ${i.startElement ?? i.startTarget} to ${i.endElement ?? i.endTarget}`,
      );
    }),
    browser__resize: onPage(async (p, i) => {
      const owner = p.tab.viewers.ownerSize();
      // spec: browser_resize. The layout is the controller's, else the longest-watching viewer's.
      if (owner) {
        throw new PageError(
          `tab ${p.tab.number}'s layout belongs to the person watching it ` +
            `(${owner.width}x${owner.height}); it stays as they size it`,
        );
      }
      const width = Number(i.width), height = Number(i.height);
      await p.tab.resize({ width, height, scale: p.tab.layout.scale });
      return `Resized tab ${p.tab.number} to ${width}x${height}`;
    }),
    browser__emulate_media: onPage(async (p, i) => {
      const now = { ...(emulated.get(p.tab) ?? {}) };
      for (const key of ["media", ...Object.keys(FEATURES)]) {
        if (!(key in i)) continue;
        if (i[key] === null) delete now[key];
        else now[key] = String(i[key]);
      }
      await p.cdp.send("Emulation.setEmulatedMedia", {
        media: now.media ?? "",
        features: Object.entries(FEATURES).map(([k, name]) => ({ name, value: now[k] ?? "" })),
      }, p.tab.session);
      emulated.set(p.tab, now);
      const set = Object.entries(now).map(([k, v]) => `${k}=${v}`).join(", ");
      return set ? `Emulating ${set}` : "No media emulation: the page sees the browser's own";
    }),
    browser__form_state: onPage(async (p, i) => {
      const root = typeof i.target === "string" ? await find(p, i.target) : null;
      const state = root
        ? await onElement(p, root, `function () { return (${FORM_STATE_JS})(this); }`)
        : await evaluate(p, `(${FORM_STATE_JS})(null)`);
      const refused = (state as { refused?: string } | null)?.refused;
      if (refused) throw new PageError(refused);
      if (typeof state !== "string") throw new PageError("the form state could not be read");
      return state;
    }),
  };
}
