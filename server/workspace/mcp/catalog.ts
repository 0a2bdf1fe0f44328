import { type Tool, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  type ToolHandler,
  toolName,
  type ToolNaming,
  type ToolRole,
  type ToolSpec,
} from "../../subsystem.ts";
import { LEAD_LABEL } from "../workspace.ts";

/** One tool a running subsystem offers: its declaration, its handler and who declared it. */
export interface ToolEntry {
  spec: ToolSpec;
  handler: ToolHandler;
  subsystem: string;
}

/** A verb: lower-case words joined by underscores, a letter first. */
const VERB = /^[a-z][a-z0-9_]*$/;

/** The role a seat's agent has: a project's lead is `lead`, every other label a worker. */
export function roleOf(label: string): ToolRole {
  return label === LEAD_LABEL ? "lead" : "worker";
}

/**
 * Checks a manifest's tool declarations at boot: each name is its family joined to a verb as the
 * spec's naming says (ToolNaming: `<family>__<verb>`, or `<family>_<verb>` for an upstream-named
 * family), one family names all its tools one way, and each name appears once across every
 * subsystem. Returns the sentence naming the first problem, or null.
 */
export function toolDeclarationProblem(
  specs: readonly ToolSpec[],
  taken: ReadonlySet<string>,
): string | null {
  const namingOf = new Map<string, ToolNaming>();
  for (const spec of specs) {
    // A declaration the type system did not hold (a manifest built at run time): said, not read.
    const absent = [
      ...(typeof spec?.name === "string" ? [] : ["name"]),
      ...(typeof spec?.family === "string" ? [] : ["family"]),
      ...(Array.isArray(spec?.roles) ? [] : ["roles"]),
    ];
    if (absent.length > 0) {
      const which = typeof spec?.name === "string" ? `tool \`${spec.name}\`` : "a tool";
      return `${which} is declared without its ${absent.join(", ")}`;
    }
    const naming = spec.naming ?? "forge";
    const prefix = toolName(spec.family, "", naming);
    const verb = spec.name.startsWith(prefix) ? spec.name.slice(prefix.length) : null;
    if (verb === null || !VERB.test(verb) || !VERB.test(spec.family)) {
      const other = spec.name.split(naming === "upstream" ? "_" : "__")[0];
      if (verb === null && VERB.test(other) && other !== spec.name) {
        return `tool \`${spec.name}\` is declared in family \`${spec.family}\`, not \`${other}\``;
      }
      return `tool \`${spec.name}\` is not named ${toolName("<family>", "<verb>", naming)}`;
    }
    const first = namingOf.get(spec.family);
    if (first !== undefined && first !== naming) {
      return `family \`${spec.family}\` names its tools two ways (${first} and ${naming})`;
    }
    namingOf.set(spec.family, naming);
    if (taken.has(spec.name)) return `tool \`${spec.name}\` is declared twice`;
    if (spec.roles.length === 0) return `tool \`${spec.name}\` names no role that may call it`;
  }
  return null;
}

/**
 * The MCP `tools/list` entry of one tool (each part measured against the CLI): the input as JSON
 * Schema, the read-only hint (such calls run beside a parked one), and `anthropic/alwaysLoad` so
 * the schema reaches the model without a ToolSearch round trip. The entry is read with the MCP
 * SDK's own Tool schema when it is built, so a declaration MCP would not accept fails at the first
 * list.
 */
export function listEntry(spec: ToolSpec): Tool {
  const known = listed.get(spec);
  if (known) return known;
  const entry = buildEntry(spec);
  listed.set(spec, entry);
  return entry;
}

/**
 * Each declaration's entry, built once: converting the zod inputs to JSON Schema took ~30 ms
 * of the server's thread on every CLI's `tools/list` (a stall a CLI line's
 * latency met). A reload declares new spec objects, which are built afresh.
 */
const listed = new WeakMap<ToolSpec, Tool>();

function buildEntry(spec: ToolSpec): Tool {
  const { $schema: _, ...schema } = z.toJSONSchema(spec.input, {
    io: "input",
    unrepresentable: "any",
  });
  if (schema.type === "object" && !("additionalProperties" in schema)) {
    schema.additionalProperties = false;
  }
  return ToolSchema.parse({
    name: spec.name,
    description: spec.description,
    inputSchema: schema,
    annotations: { readOnlyHint: spec.readOnly === true },
    _meta: { "anthropic/alwaysLoad": true },
  });
}

/**
 * Parses a call's arguments against the tool's schema. A failure is a sentence naming each bad
 * field (`edits.0.key: expected string`), never the engine's own words alone.
 */
export function parseInput(
  spec: ToolSpec,
  args: unknown,
): { ok: true; input: unknown } | { ok: false; why: string } {
  const parsed = spec.input.safeParse(args ?? {});
  if (parsed.success) return { ok: true, input: parsed.data };
  const fields = parsed.error.issues.slice(0, 4).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "(the arguments)";
    return `${where}: ${plainIssue(issue)}`;
  });
  return { ok: false, why: `${spec.name} was called with bad input: ${fields.join("; ")}` };
}

/** A schema issue in forge's words (the library's own messages stay out). */
function plainIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    case "too_small":
      return `${sizeOf(issue.origin)} at least ${String(issue.minimum)}${unitOf(issue.origin)}`;
    case "too_big":
      return `${sizeOf(issue.origin)} at most ${String(issue.maximum)}${unitOf(issue.origin)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return issue.format === "regex" ? "is not in the form it takes" : `must be a ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return "matches none of the forms it takes";
    case "custom":
      return issue.message; // a schema's own refinement: forge's words, written beside the tool
    default:
      return "is not accepted";
  }
}

function sizeOf(origin: string): string {
  return origin === "array" || origin === "set" ? "must hold" : "must be";
}

function unitOf(origin: string): string {
  return origin === "string" ? " characters long" : origin === "array" ? " items" : "";
}
