import { PageError } from "./page_ops.ts";
import type { OnPage } from "./page_tool.ts";
import type { BrowserHandlers } from "./tool_specs.ts";
import type { Tab } from "./tab.ts";

/** browser_emulate_media's argument → the CSS media feature it sets. */
const FEATURES: Record<string, string> = {
  colorScheme: "prefers-color-scheme",
  reducedMotion: "prefers-reduced-motion",
  forcedColors: "forced-colors",
  contrast: "prefers-contrast",
};
/** browser_emulate_media's arguments: the media type, then each feature. */
const KEYS = ["media", "colorScheme", "reducedMotion", "forcedColors", "contrast"] as const;
/** Each tab's emulated media: one call sets all of it, so omitted arguments keep theirs. */
const emulated = new WeakMap<Tab, Record<string, string>>();

/**
 * The tools that set how the page is laid out and rendered: browser_resize (the viewport, unless a
 * person watching lays it out) and browser_emulate_media (CSS media type and features).
 */
export function layoutTools(
  onPage: OnPage,
): Pick<BrowserHandlers, "browser_resize" | "browser_emulate_media"> {
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
      const { width, height } = i;
      await p.tab.resize({ width, height, scale: p.tab.layout.scale });
      return `Resized tab ${p.tab.number} to ${width}x${height}`;
    }),
    browser_emulate_media: onPage(async (p, i) => {
      const now = { ...(emulated.get(p.tab) ?? {}) };
      for (const key of KEYS) {
        if (!(key in i)) continue;
        const value = i[key];
        if (value === null) delete now[key];
        else now[key] = String(value);
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
