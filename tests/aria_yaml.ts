/**
 * Reading Playwright's aria snapshots (the YAML `page.ariaSnapshot()` renders) back into nodes,
 * for comparing forge's browser_snapshot with Playwright's own. A line is `- role "name" [state]`
 * with `: text` or nested children; `- text: ...` is text; `- /url: ...` a property.
 */

export interface AriaNode {
  role: string;
  /** The name as printed; null when the line prints none. */
  name: string | null;
  /** The line as it was, for a failure's message. */
  line: string;
  /** Text and element children, in order. */
  children: (AriaNode | string)[];
}

const LINE = /^(\s*)- (.*)$/;
const HEAD = /^([a-z]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)(?::(?: (.*))?)?$/;

function unquote(s: string): string {
  if (s.startsWith('"')) {
    try {
      return JSON.parse(s);
    } catch { /* left as written */ }
  }
  if (s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replaceAll("''", "'");
  return s;
}

/** The snapshot's top-level nodes. */
export function parseAria(yaml: string): AriaNode[] {
  const root: AriaNode = { role: "fragment", name: null, line: "", children: [] };
  const stack: { indent: number; node: AriaNode }[] = [{ indent: -1, node: root }];
  for (const raw of yaml.split("\n")) {
    const m = LINE.exec(raw);
    if (!m) continue;
    const indent = m[1].length;
    while (stack.length > 1 && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)!.node;
    const body = unquote(m[2]);
    if (body.startsWith("/")) continue; // a property: /url, /placeholder
    if (body.startsWith("text: ")) {
      parent.children.push(unquote(body.slice(6)));
      continue;
    }
    const h = HEAD.exec(body);
    if (!h) {
      parent.children.push(body);
      continue;
    }
    const node: AriaNode = {
      role: h[1],
      name: h[2] === undefined ? null : JSON.parse(`"${h[2]}"`),
      line: raw.trim(),
      children: h[4] === undefined ? [] : [unquote(h[4])],
    };
    parent.children.push(node);
    stack.push({ indent, node });
  }
  return root.children.filter((c): c is AriaNode => typeof c !== "string");
}

/** Every element node, depth first. */
export function flatten(nodes: (AriaNode | string)[]): AriaNode[] {
  return nodes.flatMap((n) => typeof n === "string" ? [] : [n, ...flatten(n.children)]);
}

/** What a node's descendants print, in order: their text and their names (or their content). */
export function printedContent(node: AriaNode): string {
  return node.children.map((c) => typeof c === "string" ? c : c.name ?? printedContent(c)).join(
    " ",
  );
}

const squash = (s: string) => s.replace(/\s+/g, "");

/** Whether `tool` is the element `want`, role and name as printed. */
function printedSame(want: AriaNode, tool: AriaNode): boolean {
  return want.role === tool.role && (tool.name ?? "") === (want.name ?? "");
}

/**
 * Whether `tool` lists the element `want` as the same role and name. Playwright's AI mode leaves
 * out a name its own descendants print (a heading wrapping a link prints the link, not the
 * heading's name "Outer link" again): such a node, printing no name, matches when what its
 * descendants print spells the name.
 */
export function sameElement(want: AriaNode, tool: AriaNode): boolean {
  if (printedSame(want, tool)) return true;
  const name = want.name ?? "";
  return want.role === tool.role && tool.name === null && name !== "" &&
    squash(printedContent(tool)) === squash(name);
}

/**
 * The elements of `reference` that `tool` does not list with the same role and name, matched
 * one to one (two buttons named "Open" need two): names as printed first, then names a node's
 * descendants print.
 */
export function unlisted(reference: AriaNode[], tool: AriaNode[]): AriaNode[] {
  const free = flatten(tool);
  let left = flatten(reference);
  for (const same of [printedSame, sameElement]) {
    left = left.filter((want) => {
      const i = free.findIndex((t) => same(want, t));
      if (i >= 0) free.splice(i, 1);
      return i < 0;
    });
  }
  return left;
}
