import type { Wire } from "../../protocol/mod.ts";
import type { AreaSpec, KeySpec } from "./spec.ts";

/** A node of the schema tree built from the catalogue's patterns. */
type Node = { kind: "table"; children: Map<string, Node | KeySpec> } | {
  kind: "array";
  entry: Node & { kind: "table" };
};

export interface Violation {
  /** The key at fault: the line and column are found from it. */
  path: (string | number)[];
  /** The table the message speaks in (default `path`): a message names its key once, by the
   * key's own name, and the sentence says which table holds it. */
  in?: (string | number)[];
  message: string;
}

/** Builds the schema tree: `orgs[].projects[].path` makes orgs an array whose entries hold one. */
export function schemaTree(areas: AreaSpec[]): Node & { kind: "table" } {
  const root: Node & { kind: "table" } = { kind: "table", children: new Map() };
  for (const spec of areas.flatMap((a) => a.keys)) {
    const parts = spec.pattern.split(".");
    let node: Node & { kind: "table" } = root;
    parts.forEach((part, i) => {
      const isArray = part.endsWith("[]");
      const name = isArray ? part.slice(0, -2) : part;
      if (i === parts.length - 1) {
        node.children.set(name, spec);
        return;
      }
      let next = node.children.get(name);
      if (!next || "pattern" in next) {
        next = isArray
          ? { kind: "array", entry: { kind: "table", children: new Map() } }
          : { kind: "table", children: new Map() };
        node.children.set(name, next);
      }
      node = next.kind === "array" ? next.entry : next;
    });
  }
  return root;
}

/** Every unknown key and wrong type in a parsed document, with its path. */
export function validateTree(
  tree: Record<string, unknown>,
  schema: Node & { kind: "table" },
): Violation[] {
  const out: Violation[] = [];
  walkTable(tree, schema, [], out);
  return out;
}

function walkTable(
  obj: Record<string, unknown>,
  node: Node & { kind: "table" },
  path: (string | number)[],
  out: Violation[],
) {
  // A key the catalogue marks required is enforced at load, on its own entry, so a
  // project with no path is refused rather than running in `<cwd>/undefined`.
  for (const [name, child] of node.children) {
    if ("pattern" in child && child.edit.required && obj[name] === undefined) {
      out.push({ path: [...path, name], in: path, message: `\`${name}\` is required and missing` });
    }
  }
  for (const [name, value] of Object.entries(obj)) {
    const here = [...path, name];
    const child = node.children.get(name);
    const said = (message: string, at = here) => out.push({ path: at, in: path, message });
    if (!child) {
      said(`unknown key \`${name}\``);
    } else if ("pattern" in child) {
      const why = checkValue(child, value);
      if (why) said(`\`${name}\` ${why}`);
    } else if (child.kind === "array") {
      if (!Array.isArray(value)) {
        said(`\`${name}\` must be an array of tables ([[${dotted(here)}]])`);
        continue;
      }
      value.forEach((entry, i) => {
        if (!isPlainObject(entry)) said(`\`${name}\` entries must be tables`, [...here, i]);
        else walkTable(entry, child.entry, [...here, i], out);
      });
    } else if (!isPlainObject(value)) {
      said(`\`${name}\` must be a table`);
    } else {
      walkTable(value, child, here, out);
    }
  }
}

/** Checks one value against its key's kind and rule; null when it is fine. */
export function checkValue(spec: KeySpec, value: unknown): string | null {
  return checkKind(spec, value) ?? spec.check?.(value as Wire) ?? null;
}

/** Checks one value against its key's kind alone; null when it is that kind's shape. */
export function checkKind(spec: KeySpec, value: unknown): string | null {
  const kindOk = (kind: string, v: unknown): boolean =>
    kind === "list"
      ? Array.isArray(v) && v.every((x) => typeof x === "string")
      : kind === "string"
      ? typeof v === "string"
      : kind === "number"
      ? typeof v === "number" && Number.isFinite(v)
      : typeof v === "boolean";
  // A credential's value is never said back, even one of the wrong kind.
  const describe = spec.secret ? kindOf : describeValue;
  switch (spec.kind) {
    case "string":
    case "number":
      if (!kindOk(spec.kind, value)) return `must be a ${spec.kind}, not ${describe(value)}`;
      break;
    case "bool":
      if (typeof value !== "boolean") return `must be true or false, not ${describe(value)}`;
      break;
    case "list":
    case "set":
      if (!Array.isArray(value) || !value.every((v) => kindOk(spec.item ?? "string", v))) {
        return `must be a list of ${spec.item ?? "string"}s`;
      }
      break;
    case "table":
      if (
        !isPlainObject(value) ||
        !Object.values(value).every((v) => kindOk(spec.item ?? "string", v))
      ) {
        return `must be a table of ${spec.item ?? "string"} values`;
      }
  }
  return null;
}

/** A value's kind and the value itself: `a number (80)`. */
function describeValue(v: unknown): string {
  const kind = kindOf(v);
  return ["a list", "a table", "a date"].includes(kind) ? kind : `${kind} (${JSON.stringify(v)})`;
}

/** A value's kind alone: `a number`, `a list`. */
function kindOf(v: unknown): string {
  if (Array.isArray(v)) return "a list";
  if (isPlainObject(v)) return "a table";
  if (v instanceof Date) return "a date";
  return typeof v === "boolean"
    ? "a bool"
    : typeof v === "number"
    ? "a number"
    : typeof v === "string"
    ? "a string"
    : typeof v;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function dotted(path: (string | number)[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : p)).join(".").replace(/\.\[/g, "[");
}
