/**
 * The pieces every browser tool declaration shares (tool_specs.ts, tool_specs_page.ts): the
 * `browser_<verb>` name and the arguments @playwright/mcp spells the same way everywhere.
 */
import { z } from "zod";
import { defineTool, toolName } from "../../server/subsystem.ts";

/** What a target argument takes. */
export const target = z.string().min(1).describe(
  "Exact target element reference from the page snapshot (e.g. e5, f3e5), or a unique element " +
    "selector",
);
export const element = z.string().optional().describe(
  "Human-readable element description used to obtain permission to interact with the element",
);
export const filename = z.string().optional().describe(
  "Save the answer to this file instead of returning it (relative names resolve against your " +
    "working directory)",
);
export const modifiers = z.array(z.enum(["Alt", "Control", "ControlOrMeta", "Meta", "Shift"]));
/**
 * The original's per-call profile. A seat's profile is forge.toml's, so only its own is accepted
 * (tools.ts): the argument is taken, never refused as unknown.
 */
export const profile = z.string().optional().describe(
  "The browser profile to use; this session's own is the only one it may name (forge.toml's " +
    "browser_profile), and omitting it means that one",
);
const roles = ["lead", "worker"] as const;

/**
 * One browser tool's declaration: named `browser_<verb>`, in the always-on browser family, with
 * the family's optional `profile` beside its own arguments. The name stays literal and the
 * schema typed (defineTool), so each handler receives what its own schema infers.
 */
export const spec = <const V extends string, S extends z.ZodRawShape>(
  verb: V,
  description: string,
  shape: S,
  readOnly = false,
) =>
  defineTool({
    name: toolName("browser", verb, "upstream"),
    family: "browser",
    naming: "upstream",
    description,
    input: z.object({ ...shape, profile }).strict(),
    roles,
    readOnly,
  });
