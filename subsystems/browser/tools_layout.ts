import type { ToolHandler } from "../../server/subsystem.ts";
import { PageError } from "./page_ops.ts";
import type { PageFn } from "./page_tool.ts";
import type { Tab } from "./tab.ts";

/** browser_emulate_media's argument → the CSS media feature it sets. */
const FEATURES: Record<string, string> = {
  colorScheme: "prefers-color-scheme",
  reducedMotion: "prefers-reduced-motion",
  forcedColors: "forced-colors",
  contrast: "prefers-contrast",
};
/** Each tab's emulated media: one call sets all of it, so omitted arguments keep theirs. */
const emulated = new WeakMap<Tab, Record<string, string>>();

/**
 * The tools that set how the page is laid out and rendered: browser_resize (the viewport, unless a
 * person watching lays it out) and browser_emulate_media (CSS media type and features).
 */
export function layoutTools(onPage: (fn: PageFn) => ToolHandler): Record<string, ToolHandler> {
  return {
    browser_resize: onPage(async (p, i) => {
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
    browser_emulate_media: onPage(async (p, i) => {
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
  };
}
