/**
 * Reading Playwright's aria snapshots (the YAML `page.ariaSnapshot()` renders) back into nodes,
 * for comparing forge's browser_snapshot with Playwright's own. A line is `- role "name" [state]`
 * with `: text` or nested children; `- text: ...` is text; `- /url: ...` a property.
 */
import { parseLine } from "../subsystems/browser/snapshot_lines.ts";

export interface AriaNode {
  role: string;
  /** The name as printed; null when the line prints none. */
  name: string | null;
  /** The line as it was, for a failure's message. */
  line: string;
  /** Text and element children, in order. */
  children: (AriaNode | string)[];
}

/** A key: `role`, `role "name"`, then its `[state]`s (what Playwright's key parser reads). */
const HEAD = /^([a-z]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)$/;

/** Why a snapshot could not be read: the line, numbered from 1, and what was wrong with it. */
export class AriaYamlError extends Error {}

/**
 * The snapshot's top-level nodes. Lines are taken apart as Playwright's renderer writes them
 * (snapshot_lines.ts: a single-quoted key where YAML needs one, a double-quoted value); a line
 * that is not a list item, or a key that is not `role "name" [state]`, throws an AriaYamlError
 * naming the line - a comparison never passes over what it could not read.
 */
export function parseAria(yaml: string): AriaNode[] {
  const root: AriaNode = { role: "fragment", name: null, line: "", children: [] };
  const stack: { indent: number; node: AriaNode }[] = [{ indent: -1, node: root }];
  const lines = yaml.split("\n");
  lines.forEach((raw, n) => {
    if (raw.trim() === "") return;
    const unreadable = (why: string) =>
      new AriaYamlError(`aria snapshot line ${n + 1} ${why}: ${JSON.stringify(raw)}`);
    const l = parseLine(raw);
    if (!l) throw unreadable("is not a list item (`- ...`)");
    if (l.keyRaw.startsWith("'") && !/^'.*'$/s.test(l.keyRaw)) {
      throw unreadable("has a quoted key with no closing quote");
    }
    while (stack.length > 1 && stack.at(-1)!.indent >= l.indent) stack.pop();
    const parent = stack.at(-1)!.node;
    if (l.key.startsWith("/")) return; // a property: /url, /placeholder
    if (l.key === "text") {
      if (l.value === null) throw unreadable("is a text line with no text");
      parent.children.push(l.value);
      return;
    }
    const h = HEAD.exec(l.key);
    if (!h) throw unreadable('does not start `role "name" [state]`');
    let name: string | null = null;
    if (h[2] !== undefined) {
      try {
        name = JSON.parse(`"${h[2]}"`);
      } catch {
        throw unreadable("has a name whose escapes do not read");
      }
    }
    const node: AriaNode = {
      role: h[1],
      name,
      line: raw.trim(),
      children: l.value === null ? [] : [l.value],
    };
    parent.children.push(node);
    stack.push({ indent: l.indent, node });
  });
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
