import type { z } from "zod";
import type { ForgeConfig } from "./config/types.ts";
import type { SeatInfo } from "./workspace/workspace.ts";

// forge's own MCP tools. The CLI sees a tool as `mcp__forge__<name>`; `<name>` is
// `<family>__<verb>` (`settings__set`, `vault__read`), or `<family>_<verb>` for a family that
// keeps an upstream tool set's names (`browser_navigate`: see ToolNaming). A manifest declares
// its tools; `create`
// returns one handler per declared tool; the bridge (server/workspace/mcp/) lists the tools a
// seat may call, validates the input against the zod schema (a bad field is a tool error naming
// it, never a crash), and runs the handler with the calling seat.

/** Which kind of seat may call a tool. A project's lead is `lead`; every other label a worker. */
export type ToolRole = "lead" | "worker";

/**
 * How a tool's name joins its family and verb. `forge` (the default): `<family>__<verb>`, the
 * family its own prefix. `upstream`: `<family>_<verb>`, for a family that transcribes a tool set
 * models already know and keeps its names (the browser family keeps @playwright/mcp's
 * `browser_navigate`, `browser_snapshot`, ...). Every tool of one family is named one way.
 */
export type ToolNaming = "forge" | "upstream";

/** The name `toolName` gives, kept literal so a tool's name reaches its handler's key. */
export type ToolNameOf<F extends string, V extends string, N extends ToolNaming> = N extends
  "upstream" ? `${F}_${V}` : `${F}__${V}`;

/** The name a tool of `family` doing `verb` has under `naming`. */
export function toolName<F extends string, V extends string, N extends ToolNaming = "forge">(
  family: F,
  verb: V,
  naming: N = "forge" as N,
): ToolNameOf<F, V, N> {
  return `${family}${naming === "upstream" ? "_" : "__"}${verb}` as ToolNameOf<F, V, N>;
}

/** One tool forge's MCP server offers, in one of the original forge's tool families. */
export interface ToolSpec<I extends z.ZodType = z.ZodType, N extends string = string> {
  /** `toolName(family, verb, naming)`: what the agent calls after `mcp__forge__`. */
  name: N;
  /** The family (`settings`, `browser`, ...): a worker's `mcp_families` picks families. */
  family: string;
  /** How `name` joins family and verb; absent is `forge`. */
  naming?: ToolNaming;
  /**
   * Offered only while this holds under the config in force (a key that gates a dangerous tool,
   * read at every listing so a reload moves it); absent is always.
   */
  when?: (config: ForgeConfig) => boolean;
  /** What the model reads: what the tool does and what a person sees while it waits. */
  description: string;
  /** The input; rendered as JSON Schema for tools/list, parsed before the handler runs. */
  input: I;
  /** Who may call it; a seat of another role does not see it in tools/list. */
  roles: readonly ToolRole[];
  /**
   * MCP `readOnlyHint`: the CLI runs such calls beside each other and beside a parked call of
   * the same message; a call that may park or write must leave it false.
   */
  readOnly?: boolean;
}

/** What a tool handler learns of its call. */
export interface ToolCall {
  /** The calling seat (its slot, project, cwd). */
  seat: SeatInfo;
  role: ToolRole;
  /** The CLI's tool_use id (`_meta["claudecode/toolUseId"]`), when it sent one. */
  toolUseId: string | null;
  /** Aborts when the CLI cancels the call (an interrupt) or the session ends. */
  signal: AbortSignal;
}

/** What goes back to the agent as the tool_result. Throwing a `Refusal` is an error result too. */
export interface ToolResult {
  text: string;
  /** Further text blocks after `text`, in order (review__list names other branches in one). */
  more?: string[];
  isError?: boolean;
  /** Pictures after the text (a screenshot), as MCP image blocks: base64 `data` and its type. */
  images?: { data: string; mimeType: string }[];
}

/** A tool's handler as the registry holds it: `input` has already passed the declared schema. */
export type ToolHandler = (input: unknown, call: ToolCall) => Promise<ToolResult>;

/** A tool's handler typed by its schema: `input` is what the schema parsed, as it infers it. */
export type ToolHandlerOf<I extends z.ZodType> = (
  input: z.output<I>,
  call: ToolCall,
) => Promise<ToolResult>;

/** Declares a tool: its name stays literal and its schema's type reaches its handler. */
export function defineTool<const N extends string, I extends z.ZodType>(
  spec: ToolSpec<I, N>,
): ToolSpec<I, N> {
  return spec;
}

/** One handler per declared tool, each typed by its own tool's schema. */
export type ToolHandlers<T extends readonly ToolSpec[]> = {
  [S in T[number] as S["name"]]: ToolHandlerOf<S["input"]>;
};

/**
 * The handlers of a list of declared tools, keyed by name as `Handlers.tools` takes them:
 * `toolHandlers(SPECS)({name: (input, call) => ...})`, each handler's input typed by its own
 * tool's schema (the specs are bound first, so the map is typed from them). The bridge parses a
 * call's arguments with that same schema before calling (server/workspace/mcp/catalog.ts
 * `parseInput`), which is what lets the typed map be held as the registry's untyped one.
 */
export function toolHandlers<T extends readonly ToolSpec[]>(
  _specs: T,
): (handlers: ToolHandlers<T>) => Record<string, ToolHandler> {
  return (handlers) => handlers as Record<string, ToolHandler>;
}
