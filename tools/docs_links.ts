/**
 * The links of the repository's Markdown pages and whether each one lands: a relative target is a
 * file inside the repository, and a `#fragment` names a heading of its page as GitHub slugs it.
 * tools/docs_test.ts runs it over README.md and docs/*.md.
 */
import GithubSlugger from "github-slugger";

/** A page without its fenced code blocks, where a `#` line is a comment and a link is text. */
function withoutFences(text: string): string[] {
  let fence: string | null = null;
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    const opens = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opens) fence = opens[1];
    else if (fence !== null && line.trimStart().startsWith(fence)) fence = null;
    else if (fence === null) kept.push(line);
  }
  return kept;
}

/**
 * Every link target a page's prose writes: Markdown links and images, and the `src` or `href` of
 * an `<img>` or `<a>` tag. Code (fenced blocks and spans) holds no links.
 */
export function linkTargets(text: string): string[] {
  const prose = withoutFences(text).join("\n").replace(/`[^`\n]*`/g, "");
  return [
    ...[...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
    ...[...prose.matchAll(/<(?:img|a)\b[^>]*?\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]),
  ];
}

/**
 * The fragments GitHub gives a page's headings: the heading's text as it renders (a link is its
 * words, a code span its content, a tag nothing), lowercased, spaces to `-`, punctuation dropped,
 * and a repeated heading `-1`, `-2`, ... (github-slugger, the rule GitHub's own renderer follows).
 */
export function headingAnchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of withoutFences(text)) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!heading) continue;
    const shown = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    anchors.add(slugger.slug(shown));
  }
  return anchors;
}

/**
 * What is wrong with each link of one page (`page` is its path under `root`): a target outside the
 * repository or missing, or a fragment no heading of its Markdown page carries. Web links are not
 * followed. Empty when every link lands.
 */
export async function brokenLinks(root: URL, page: string, text: string): Promise<string[]> {
  const base = new URL(page, root);
  const broken: string[] = [];
  for (const link of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const hash = link.indexOf("#");
    const path = hash < 0 ? link : link.slice(0, hash);
    const fragment = hash < 0 ? null : decodeURIComponent(link.slice(hash + 1));
    const target = path === "" ? base : new URL(path, base);
    const why = await whyNot(root, target, fragment, path === "" ? text : null);
    if (why !== null) broken.push(`${page}: ${link} (${why})`);
  }
  return broken;
}

/** Why a target does not land, or null when it does; `ownText` is the page itself when known. */
async function whyNot(
  root: URL,
  target: URL,
  fragment: string | null,
  ownText: string | null,
): Promise<string | null> {
  if (!target.href.startsWith(root.href)) return "outside the repository";
  if (ownText === null && !(await Deno.stat(target).then(() => true, () => false))) {
    return "no such file";
  }
  if (fragment === null || fragment === "") return null;
  if (!target.pathname.endsWith(".md")) return "a fragment on a page that is not Markdown";
  const anchors = headingAnchors(ownText ?? await Deno.readTextFile(target));
  return anchors.has(fragment) ? null : `no heading there is #${fragment}`;
}
