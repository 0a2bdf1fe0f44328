/**
 * The update names forge's product code really emits, read from its syntax trees rather than its
 * text: a comment, a string in a test helper or a routing check never counts. The files are the
 * module graph `main.ts` loads (`deno info`, lazy subsystem imports included), so a test module
 * or test support is never read. A site is one of:
 *  - a call to `emit`, `update` or `seatUpdate` (a member or private method too) whose name
 *    argument is a string literal, or a conditional choosing between literals;
 *  - an object literal carrying both `name: "<literal>"` and `fields`: a SessionUpdate built whole;
 *  - `park(slot, {kind: "<literal>", ...})`: a held ask, which emits its kind's pending and
 *    resolved updates (protocol/held.ts HELD_UPDATES).
 */
import { HELD_UPDATES, type HeldKind } from "../protocol/mod.ts";

const REPO = new URL("../", import.meta.url);

/** Where each name is emitted: name -> the files (repository-relative) that emit it. */
export async function emitSites(): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const path of await productModules()) {
    const source = await Deno.readTextFile(new URL(path, REPO));
    for (const d of Deno.lint.runPlugin(plugin, path, source)) {
      const names = out.get(d.message) ?? new Set<string>();
      names.add(path);
      out.set(d.message, names);
    }
  }
  return out;
}

/** The repository's own TypeScript modules reachable from main.ts, repository-relative. */
async function productModules(): Promise<string[]> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!info.success) throw new Error(`deno info: ${new TextDecoder().decode(info.stderr)}`);
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: { specifier: string }[];
  };
  const root = REPO.href;
  return graph.modules.map((m) => m.specifier)
    .filter((s) => s.startsWith(root) && s.endsWith(".ts"))
    .map((s) => s.slice(root.length));
}

type Node = Deno.lint.Node;
const EMITTERS = new Set(["emit", "update", "seatUpdate"]);

/** The string literals an expression can evaluate to, when it is one or a choice of them. */
function literals(node: Node | undefined): string[] {
  if (!node) return [];
  if (node.type === "Literal" && typeof node.value === "string") return [node.value];
  if (node.type === "ConditionalExpression") {
    return [...literals(node.consequent), ...literals(node.alternate)];
  }
  return [];
}

function calleeName(node: Deno.lint.CallExpression): string | null {
  const c = node.callee;
  if (c.type === "Identifier") return c.name;
  if (c.type === "MemberExpression") {
    const p = c.property;
    if (p.type === "Identifier" || p.type === "PrivateIdentifier") return p.name;
  }
  return null;
}

function property(node: Deno.lint.ObjectExpression, key: string): Node | undefined {
  for (const p of node.properties) {
    if (p.type !== "Property") continue;
    const k = p.key;
    if ((k.type === "Identifier" && k.name === key) || (k.type === "Literal" && k.value === key)) {
      return p.value as Node;
    }
  }
  return undefined;
}

const plugin: Deno.lint.Plugin = {
  name: "emit-sites",
  rules: {
    sites: {
      create(ctx) {
        const report = (node: Node, name: string) => ctx.report({ node, message: name });
        return {
          CallExpression(node) {
            const callee = calleeName(node);
            if (callee && EMITTERS.has(callee)) {
              const arg = node.arguments[callee === "seatUpdate" ? 1 : 0] as Node | undefined;
              for (const name of literals(arg)) report(node, name);
            }
            const spec = node.arguments[1];
            if (callee === "park" && spec?.type === "ObjectExpression") {
              for (const kind of literals(property(spec, "kind"))) {
                const names = HELD_UPDATES[kind as HeldKind];
                if (names) { for (const n of [names.pending, names.resolved]) report(node, n); }
              }
            }
          },
          ObjectExpression(node) {
            if (!property(node, "fields")) return;
            for (const name of literals(property(node, "name"))) report(node, name);
          },
        };
      },
    },
  },
};
