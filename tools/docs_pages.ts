/**
 * The generated pages under docs/ and how each is made. docs/protocol.md is rendered whole from
 * protocol/'s schemas; configuration.md and architecture.md are hand-written pages with one
 * generated part each, between a BEGIN and an END marker, which `tools/deno.sh task docs`
 * rewrites and tools/docs_test.ts checks.
 */
import { renderHandlerMap } from "./docs_arch.ts";
import { renderKeyTables } from "./docs_config.ts";

export interface Page {
  /** The page, relative to the repository's root. */
  path: string;
  /** The page as it should read, given its committed text (null when there is none). */
  render(current: string | null): string;
}

/** `current` with the text between the named markers replaced by `body`. */
export function splice(current: string, name: string, body: string): string {
  const begin = `<!-- BEGIN GENERATED ${name}: \`tools/deno.sh task docs\` writes this part -->`;
  const end = `<!-- END GENERATED ${name} -->`;
  const from = current.indexOf(begin);
  const to = current.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`the page has no ${name} markers: put "${begin}" and "${end}" where it goes`);
  }
  return `${current.slice(0, from + begin.length)}\n\n${body}\n\n${current.slice(to)}`;
}

const part = (path: string, name: string, body: () => string): Page => ({
  path,
  render: (current) => {
    if (current === null) throw new Error(`${path} is missing: it holds the prose around ${name}`);
    return splice(current, name, body());
  },
});

/** Every generated page; docs/protocol.md's renderer is docs.ts's own, handed in. */
export function generatedPages(renderProtocol: () => string): Page[] {
  return [
    { path: "docs/protocol.md", render: () => renderProtocol() },
    part("docs/configuration.md", "keys", () => renderKeyTables()),
    part("docs/architecture.md", "handlers", () => renderHandlerMap()),
  ];
}

const root = new URL("../", import.meta.url);

/** Each page whose committed text is not what its generator writes. */
export async function stalePages(pages: Page[]): Promise<string[]> {
  const stale: string[] = [];
  for (const page of pages) {
    const current = await Deno.readTextFile(new URL(page.path, root)).catch(() => null);
    if (current !== page.render(current)) stale.push(page.path);
  }
  return stale;
}

/** Writes every page (or, with `check`, exits non-zero naming the stale ones). */
export async function writePages(pages: Page[], check: boolean): Promise<void> {
  if (check) {
    const stale = await stalePages(pages);
    if (stale.length) {
      console.error(`not current: ${stale.join(", ")}; run \`tools/deno.sh task docs\``);
      Deno.exit(1);
    }
    return;
  }
  for (const page of pages) {
    const url = new URL(page.path, root);
    const current = await Deno.readTextFile(url).catch(() => null);
    const text = page.render(current);
    if (text !== current) await Deno.writeTextFile(url, text);
    console.log(`${text === current ? "unchanged" : "wrote"} ${page.path} (${text.length} bytes)`);
  }
}
