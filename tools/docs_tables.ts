import { z } from "zod";

// The schema-to-table half of the docs generator (tools/docs.ts): a zod schema as JSON Schema,
// a compact type for a cell, and one row per field with its note.

export type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema | false;
  prefixItems?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  $ref?: string;
  description?: string;
};

/** The JSON Schema of one zod schema, with anything JSON Schema cannot say read as JSON. */
export function jsonSchema(schema: z.ZodType): Schema {
  return z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Schema;
}

/** Past this many characters a tagged union's cell names each arm's fields without their types. */
const LONG_CELL = 240;

/**
 * A tagged union (every arm an object with the same key fixed to a value) as its arms' tags and
 * field names: `{kind: "a", x, y} \| {kind: "b", z}`. Null when the arms share no such key.
 */
function taggedArms(arms: Schema[]): string | null {
  const first = arms[0]?.properties ?? {};
  const tag = Object.keys(first).find((k) =>
    arms.every((a) => a.properties?.[k]?.const !== undefined)
  );
  if (tag === undefined) return null;
  return arms.map((a) => {
    const rest = Object.keys(a.properties!).filter((k) => k !== tag);
    return `{${[`${tag}: ${JSON.stringify(a.properties![tag].const)}`, ...rest].join(", ")}}`;
  }).join(" \\| ");
}

/** A compact type for a table cell: `string`, `Slot`, `"a" \| "b"`, `[JSON]`, `{...}`. */
export function typeOf(s: Schema): string {
  if (s.$ref) return "JSON";
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  // z.union is anyOf and z.discriminatedUnion oneOf: on the wire both are "one of these".
  const arms = s.anyOf ?? s.oneOf;
  if (arms) {
    const kinds = arms.map(typeOf);
    // z.json(): any JSON value.
    if (
      ["string", "number", "boolean", "null"].every((k) => kinds.includes(k)) && kinds.length === 6
    ) {
      return "JSON";
    }
    if (kinds.includes("null") && kinds.length === 2) {
      return `${kinds.find((k) => k !== "null")} or null`;
    }
    const drawn = kinds.join(" \\| ");
    return drawn.length > LONG_CELL ? taggedArms(arms) ?? drawn : drawn;
  }
  const props = s.properties ? Object.keys(s.properties).sort().join(",") : "";
  if (props === "label,org,project") return "Slot";
  if (s.type === "array") {
    // A tuple: its positions in order.
    if (s.prefixItems) return `[${s.prefixItems.map(typeOf).join(", ")}]`;
    return `[${s.items ? typeOf(s.items) : "JSON"}]`;
  }
  if (s.type === "object") {
    // A record: any key, each value of one type. (Closed or open is not drawn: a client's unknown
    // fields are ignored either way.)
    if (!s.properties) {
      const values = s.additionalProperties;
      return `{string: ${typeof values === "object" ? typeOf(values) : "JSON"}}`;
    }
    const entries = Object.entries(s.properties);
    if (entries.length > 4) return `{${entries.map(([k]) => k).join(", ")}}`;
    return `{${entries.map(([k, v]) => `${k}: ${typeOf(v)}`).join(", ")}}`;
  }
  if (s.type === "integer") return "integer";
  if (Array.isArray(s.type)) return s.type.join(" \\| ");
  return s.type ?? "JSON";
}

/**
 * The object a field holds when its cell names its keys alone (more than four of them): itself,
 * the items of a list of it, or it or null. Its fields get rows of their own beneath it.
 */
function wideObject(s: Schema): { schema: Schema; path: string } | null {
  const arms = s.anyOf ?? s.oneOf;
  if (arms?.length === 2 && arms.some((a) => a.type === "null")) {
    return wideObject(arms.find((a) => a.type !== "null")!);
  }
  if (s.type === "array" && s.items) {
    const inner = wideObject(s.items);
    return inner && { schema: inner.schema, path: `[]${inner.path}` };
  }
  // A Slot (3 fields) is never wide: it stays `Slot` in its cell.
  const wide = s.type === "object" && Object.keys(s.properties ?? {}).length > 4;
  return wide ? { schema: s, path: "" } : null;
}

/** One row per field of an object schema (nested wide objects as dotted rows): name, type, required, note. */
export function fieldRows(s: Schema, skip: string[] = []): string[] {
  const fields: [string, Schema, boolean][] = [];
  const walk = (o: Schema, prefix: string, depth: number) => {
    const required = new Set(o.required ?? []);
    for (const [k, v] of Object.entries(o.properties ?? {})) {
      if (!prefix && skip.includes(k)) continue;
      fields.push([`${prefix}${k}`, v, required.has(k)]);
      const wide = depth < 3 ? wideObject(v) : null;
      if (wide) walk(wide.schema, `${prefix}${k}${wide.path}.`, depth + 1);
    }
  };
  walk(s, "", 0);
  if (fields.length === 0) return ["(no fields)"];
  // The note column appears where a schema carries a description (`.describe()`).
  const notes = fields.some(([, v]) => v.description);
  const rows = fields.map(([k, v, required]) =>
    `| \`${k}\` | ${typeOf(v)} | ${required ? "yes" : "no"} |` +
    (notes ? ` ${(v.description ?? "").replaceAll("\n", " ")} |` : "")
  );
  const head = notes
    ? ["| field | type | required | note |", "|---|---|---|---|"]
    : ["| field | type | required |", "|---|---|---|"];
  return [...head, ...rows];
}
