import type { ToolHandler } from "../../server/subsystem.ts";
import { drive, PageError } from "./page_ops.ts";
import { output, type PageFn } from "./page_tool.ts";
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

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The snapshot's lines that match, each under its path from the root (its ancestors, once each),
 * as @playwright/mcp's browser_find shows them: where a hit sits (which form, which dialog) is
 * half of what the agent needs.
 */
export function findLines(yaml: string, hit: (line: string) => boolean): {
  hits: number;
  shown: string[];
} {
  const lines = yaml.split("\n");
  const keep = new Set<number>();
  let hits = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!hit(lines[i])) continue;
    hits++;
    keep.add(i);
    let indent = indentOf(lines[i]);
    for (let j = i - 1; j >= 0 && indent > 0; j--) {
      if (indentOf(lines[j]) < indent) {
        keep.add(j);
        indent = indentOf(lines[j]);
      }
    }
  }
  const shown = [...keep].sort((a, b) => a - b).map((i) => lines[i]);
  return { hits, shown };
}

/** find, resize, emulate_media and form_state (spec mcp_tools.md §5). */
export function moreTools(onPage: (fn: PageFn) => ToolHandler): Record<string, ToolHandler> {
  return {
    browser_find: onPage(async (p, i, call) => {
      const hasText = typeof i.text === "string", hasRe = typeof i.regex === "string";
      if (hasText === hasRe) {
        throw new PageError("browser_find needs exactly one of `text` or `regex`");
      }
      const re = hasRe ? parseRegex(String(i.regex)) : null;
      const needle = String(i.text ?? "").toLowerCase();
      // A fresh snapshot (so the refs returned are live), of which only the hits are returned.
      const page = await drive(p, "snapshot", {});
      const { hits, shown } = findLines(
        page.yaml,
        (l) => re ? re.test(l) : l.toLowerCase().includes(needle),
      );
      const what = re ? `regex ${i.regex}` : `text ${JSON.stringify(i.text)}`;
      const head = `### Page\n- Page URL: ${page.url}\n- Page Title: ${page.title}\n` +
        `### Find results\n${hits} snapshot line${hits === 1 ? "" : "s"} match ${what}`;
      const text = hits ? `${head}:\n\`\`\`yaml\n${shown.join("\n")}\n\`\`\`` : head;
      return await output(text, i, call);
    }),
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
    browser_form_state: onPage(async (p, i) =>
      await drive(p, "formState", { target: i.target as string | undefined })
    ),
  };
}
