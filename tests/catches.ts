/**
 * Test support: the catches in product code that drop their error (tests/catches_test.ts). A
 * catch drops its error when the error goes nowhere: a `catch` block that neither uses its
 * binding nor throws, or a `.catch(fn)` whose handler neither uses its argument nor throws.
 * Found on the real syntax tree (Deno's lint plugin API), not by pattern.
 */
export interface Drop {
  /** `path#function` (`#function[2]` for the second in one function): stable across edits. */
  key: string;
  /** Whether a comment sits in the catch or on the line above it: the site says why. */
  commented: boolean;
  /** That comment's words, when there is one. */
  why: string;
  /** The catch's first line, for the failure message. */
  text: string;
}

type Node = Deno.lint.Node;

const REPO = new URL("..", import.meta.url).pathname;

/** Product source files under `roots` (relative to the repo): no tests, no test support. */
export async function productFiles(roots: string[]): Promise<string[]> {
  const out: string[] = [];
  const skip = (p: string) =>
    /_test\.ts$|\/testing\.ts$|\/test_support\.ts$|\/node_modules\//.test(p) || !/\.tsx?$/.test(p);
  const walk = async (rel: string) => {
    const info = await Deno.stat(REPO + rel);
    if (info.isFile) {
      if (!skip(rel)) out.push(rel);
      return;
    }
    for await (const e of Deno.readDir(REPO + rel)) await walk(`${rel}/${e.name}`);
  };
  for (const r of roots) await walk(r);
  return out.sort();
}

function enclosing(node: Node): string {
  for (let n = (node as { parent?: Node }).parent; n; n = (n as { parent?: Node }).parent) {
    const o = n as unknown as Record<string, unknown>;
    const id = o.id as { name?: string } | undefined;
    const key = o.key as { name?: string } | undefined;
    if (o.type === "FunctionDeclaration" && id?.name) return id.name;
    if ((o.type === "MethodDefinition" || o.type === "Property") && key?.name) {
      return key.name;
    }
    if (o.type === "VariableDeclarator" && id?.name) return id.name;
  }
  return "(top)";
}

/** Every dropping catch in the files under `roots`, keyed and checked for a comment. */
export async function dropsIn(roots: string[]): Promise<Drop[]> {
  const drops: Drop[] = [];
  for (const path of await productFiles(roots)) {
    const source = await Deno.readTextFile(REPO + path);
    // Candidates first; identifiers and throws are collected on the same walk and matched by
    // range after it (the lint AST's nodes are not plain objects to walk by hand).
    const candidates: {
      range: [number, number];
      body: [number, number];
      param: string | null;
      fn: string;
    }[] = [];
    const names: { name: string; at: number }[] = [];
    const throws: number[] = [];
    const plugin: Deno.lint.Plugin = {
      name: "forge-catches",
      rules: {
        drop: {
          create() {
            return {
              Identifier(node) {
                names.push({ name: node.name, at: node.range[0] });
              },
              ThrowStatement(node) {
                throws.push(node.range[0]);
              },
              CatchClause(node) {
                candidates.push({
                  range: node.range,
                  body: node.body.range,
                  param: node.param?.type === "Identifier" ? node.param.name : null,
                  fn: enclosing(node),
                });
              },
              CallExpression(node) {
                // `a?.catch(f)`: Deno's tree wraps the optional member in a ChainExpression.
                const callee = node.callee.type === "ChainExpression"
                  ? node.callee.expression
                  : node.callee;
                if (callee.type !== "MemberExpression") return;
                if (callee.property.type !== "Identifier" || callee.property.name !== "catch") {
                  return;
                }
                const handler = node.arguments[0];
                if (
                  handler?.type !== "ArrowFunctionExpression" &&
                  handler?.type !== "FunctionExpression"
                ) return;
                const p = handler.params[0];
                candidates.push({
                  range: [callee.property.range[0], node.range[1]],
                  body: handler.body.range,
                  param: p?.type === "Identifier" ? p.name : null,
                  fn: enclosing(node),
                });
              },
            };
          },
        },
      },
    };
    const inside = (at: number, r: [number, number]) => at >= r[0] && at < r[1];
    const found = () =>
      candidates.filter((c) =>
        !throws.some((t) => inside(t, c.body)) &&
        !(c.param !== null && names.some((n) => n.name === c.param && inside(n.at, c.body)))
      );
    Deno.lint.runPlugin(plugin, REPO + path, source);
    const seen = new Map<string, number>();
    for (const f of found().sort((a, b) => a.range[0] - b.range[0])) {
      const base = `${path}#${f.fn}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const lineStart = source.lastIndexOf("\n", f.range[0]) + 1;
      const prevStart = source.lastIndexOf("\n", lineStart - 2) + 1;
      const above = source.slice(prevStart, lineStart);
      // Inside the catch, on the line above it, or trailing the line it ends on.
      const lineEnd = source.indexOf("\n", f.range[1]);
      const inside = source.slice(f.range[0], lineEnd < 0 ? source.length : lineEnd);
      const commented = /\/\/|\/\*/.test(inside) || /^\s*(\/\/|\/\*|\*)/.test(above);
      const said = /(?:\/\/|\/\*)\s*(.*?)\s*(?:\*\/|$)/m.exec(
        /\/\/|\/\*/.test(inside) ? inside : above,
      );
      drops.push({
        key: n === 1 ? base : `${base}[${n}]`,
        commented,
        why: said?.[1] ?? "",
        text: source.slice(lineStart, source.indexOf("\n", f.range[0])).trim(),
      });
    }
  }
  return drops;
}
