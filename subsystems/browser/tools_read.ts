import { drive, PageError } from "./page_ops.ts";
import { type OnPage, output } from "./page_tool.ts";
import type { BrowserHandlers } from "./tool_specs.ts";

/** browser_find's `/pattern/flags` as a RegExp, or a PageError naming why not. */
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

/**
 * The tools that read the page without acting on it: browser_find (the snapshot, searched) and
 * forge's browser_form_state (each form field's value, validity and label).
 */
export function readTools(
  onPage: OnPage,
): Pick<BrowserHandlers, "browser_find" | "browser_form_state"> {
  return {
    browser_find: onPage(async (p, i, call) => {
      const hasText = typeof i.text === "string", hasRe = typeof i.regex === "string";
      if (hasText === hasRe) {
        throw new PageError("browser_find needs exactly one of `text` or `regex`");
      }
      const re = i.regex !== undefined ? parseRegex(i.regex) : null;
      const needle = (i.text ?? "").toLowerCase();
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
    browser_form_state: onPage(async (p, i) => await drive(p, "formState", { target: i.target })),
  };
}
