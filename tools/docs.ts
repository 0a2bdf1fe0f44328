/**
 * `deno task docs`: writes docs/protocol.md from the schemas in protocol/, so a client author
 * reads the wire from the repository itself, and the other generated pages (docs_pages.ts).
 * `deno task docs --check` exits non-zero when a committed page differs from what its source
 * says (CI runs the same comparison through docs_test.ts).
 *
 * Every table is rendered from a schema, never written by hand: the client messages, the server
 * messages, the Command variants (with the reply rule), the subjects and the binary kinds. A
 * field's note is its schema's `.describe()` text where the schema carries one.
 */
import { z } from "zod";
import {
  ABSENT_UPDATES,
  BEYOND_V29,
  BinaryKind,
  ClientMessage,
  COMMANDS,
  NAMED_SUBJECTS,
  needsReply,
  NOTIFY_UPDATES,
  PROTOCOL_VERSION,
  ServerMessage,
  SessionSnapshot,
  UNIT_UPDATES,
} from "../protocol/mod.ts";
import { HomeSnapshot } from "../protocol/mod.ts";
import { generatedPages, writePages } from "./docs_pages.ts";

type Schema = {
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
function jsonSchema(schema: z.ZodType): Schema {
  return z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Schema;
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
    return kinds.includes("null") && kinds.length === 2
      ? `${kinds.find((k) => k !== "null")} or null`
      : kinds.join(" \\| ");
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
function fieldRows(s: Schema, skip: string[] = []): string[] {
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

function messages(union: z.ZodDiscriminatedUnion, heading: string): string[] {
  const out = [`## ${heading}`, ""];
  for (const option of union.options as z.ZodObject[]) {
    const s = jsonSchema(option);
    const kind = String(s.properties?.kind?.const);
    out.push(`### \`${kind}\``, "", ...fieldRows(s, ["kind"]), "");
  }
  return out;
}

function commands(): string[] {
  const out = [
    "## Commands",
    "",
    'A `command` message carries one variant, externally tagged: `{"<name>": {fields}}`, or the',
    "bare name for a unit variant. `reply_to` is required exactly where the table says so, and",
    "refused where it says no.",
    "",
  ];
  for (const name of Object.keys(COMMANDS).sort() as (keyof typeof COMMANDS)[]) {
    const fields: z.ZodType | null = COMMANDS[name].fields;
    const reply = needsReply(name) ? "required" : "refused";
    const beyond = (BEYOND_V29.commands as readonly string[]).includes(name)
      ? " forge's extension beyond v29."
      : "";
    out.push(`### \`${name}\``, "", `reply_to: ${reply}.${beyond}`, "");
    if (fields === null) out.push("A unit variant: sent as its name alone.", "");
    else {
      const s = jsonSchema(fields);
      out.push(
        ...(s.properties
          ? fieldRows(s)
          : ["Fields: any JSON object (not yet pinned by a schema)."]),
        "",
      );
    }
  }
  return out;
}

/** The home and session snapshots' top-level fields (protocol/home.ts, session.ts). */
function snapshots(): string[] {
  return [
    "### The home snapshot",
    "",
    ...fieldRows(jsonSchema(HomeSnapshot)),
    "",
    "### The session snapshot",
    "",
    ...fieldRows(jsonSchema(SessionSnapshot)),
    "",
    "Where a shape differs from the original's wire, the reason is beside the field in",
    "`protocol/home.ts` and `protocol/session.ts`; `tests/golden_test.ts` checks both, built from a",
    "live seat, against the shapes recorded in `fixtures/golden/`.",
    "",
  ];
}

/** What forge adds beyond v29 (protocol/extensions.ts BEYOND_V29), each marked. */
function extensions(): string[] {
  const names = (list: readonly string[]) => list.map((n) => `\`${n}\``).join(", ");
  return [
    "## forge's extensions beyond v29",
    "",
    "Wire names the original never had; a v29 client meets none of them unless it sends one.",
    `Commands: ${names(BEYOND_V29.commands)}. Updates: ${names(BEYOND_V29.updates)}.`,
    `Home fields: ${names(BEYOND_V29.home)}. docs/notify.md says what each does.`,
    "",
    ...Object.entries(NOTIFY_UPDATES).flatMap(([name, schema]) => [
      `### \`${name}\` (keyless: home hears it)`,
      "",
      ...fieldRows(jsonSchema(schema)),
      "",
    ]),
  ];
}

/** The whole document. */
export function render(): string {
  const kinds = Object.entries(BinaryKind).map(([name, n]) => `| ${n} | \`${name}\` |`);
  return [
    "# forge's wire protocol",
    "",
    "<!-- Generated by `tools/deno.sh task docs` from the schemas in protocol/. Do not edit. -->",
    "",
    `Protocol version ${PROTOCOL_VERSION}. One WebSocket at \`/socket\`; every text message is a`,
    "JSON object tagged on `kind`. The schemas in `protocol/` are the source of this page and of",
    "the server's own types; a TypeScript client can import `protocol/mod.ts` as its SDK.",
    "",
    "## Subjects",
    "",
    `\`subscribe\` names one of: ${NAMED_SUBJECTS.map((s) => `\`${s}\``).join(", ")}, or a seat as`,
    '`{"session": Slot}`. A Slot is `{org, project, label}`.',
    "",
    ...snapshots(),
    "## Binary frames",
    "",
    "The first byte is the kind.",
    "",
    "| byte | kind |",
    "|---|---|",
    ...kinds,
    "",
    "## Updates",
    "",
    'An `update` frame carries one SessionUpdate, externally tagged: `{"<name>": {fields}}`. The',
    `unit variants cross as the bare name: ${UNIT_UPDATES.map((u) => `\`${u}\``).join(", ")}.`,
    "",
    "Updates of the original this server never sends, and why:",
    "",
    ...Object.entries(ABSENT_UPDATES).map(([name, why]) => `- \`${name}\`: ${why}`),
    "",
    ...messages(ClientMessage, "What a client sends"),
    ...messages(ServerMessage, "What a client receives"),
    ...commands(),
    ...extensions(),
  ].join("\n");
}

if (import.meta.main) {
  // Every generated page, not only this one: docs_pages.ts lists them.
  await writePages(generatedPages(render), Deno.args.includes("--check"));
}
