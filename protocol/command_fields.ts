import { z } from "zod";

// spec: How a message is tagged. The field shapes several Command variants share (and the seat
// updates that echo them): where the spec leaves a shape open, it is the original's payload type.

const Json = z.json();
export type Json = z.infer<typeof Json>;

/** The original's SessionLaunchSettings: every field optional, unknown ones refused. */
export const LaunchSettings = z.object({
  language: z.string().optional(),
  settings: z.record(z.string(), Json).optional().describe(
    "the CLI's settings keys as the client wrote them; forge reads model, " +
      "permissions.defaultMode and effortLevel from it",
  ),
  agent_progress_summaries: z.boolean().optional(),
  charter: z.string().optional(),
  delegation_preamble: z.string().optional(),
  extra_args: z.array(z.tuple([z.string(), z.string().nullable()])).optional(),
  env_overrides: z.record(z.string(), z.string()).optional(),
}).strict();
export type LaunchSettings = z.infer<typeof LaunchSettings>;

export const ImageAttachment = z.object({
  data: z.string(),
  mime_type: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
}).strict();

export const PromptSource = z.enum(["you", "cron", "gotify", "slack", "peer", "forge"]);
export type PromptSource = z.infer<typeof PromptSource>;

export const PermissionMode = z.enum([
  "default",
  "acceptEdits",
  "plan",
  "dontAsk",
  "auto",
  "bypassPermissions",
]);
export type PermissionMode = z.infer<typeof PermissionMode>;

/**
 * spawn_session's `role`: a project's lead, or a worker row by its label (the original's). The
 * worker's object is loose: the original's carries more (`wrote_row`), which forge does not read.
 * That the label is the key's own is the seat manager's check: it needs the key beside it.
 */
export const SpawnRole = z.union([
  z.literal("lead"),
  z.object({ worker: z.looseObject({ label: z.string() }) }).strict(),
]);
export type SpawnRole = z.infer<typeof SpawnRole>;

/** One of the CLI's permission suggestions, kept as its can_use_tool request wrote it. */
const PermissionUpdate = z.record(z.string(), Json).describe(
  "one of the CLI's permission_suggestions, as its can_use_tool request wrote it",
);
/**
 * What choosing a permission option does: forge builds it on each option of a permission ask
 * (protocol/asks.ts), and respond_permission sends it back.
 */
export const PermissionAction = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("allow") }).strict(),
  z.object({ kind: z.literal("allow_with_updates"), updates: z.array(PermissionUpdate) }).strict(),
  z.object({ kind: z.literal("allow_with_input") }).strict(),
  z.object({ kind: z.literal("deny") }).strict(),
]);
export type PermissionAction = z.infer<typeof PermissionAction>;
export const PermissionOutcome = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("selected"),
    option_id: z.string(),
    action: PermissionAction,
    notes_text: z.string().optional(),
    edited_input: Json.optional().describe(
      "the tool input as the person edited it, handed to the CLI as the call's input",
    ),
  }),
  z.object({ outcome: z.literal("cancelled") }),
]);
export type PermissionOutcome = z.infer<typeof PermissionOutcome>;

export const QuestionOutcome = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("answered"),
    selected_option_ids: z.array(z.string()),
    annotation: z.object({ preview: z.string().optional(), notes: z.string().optional() })
      .nullable().optional(),
  }),
  z.object({ outcome: z.literal("cancelled") }),
]);
export type QuestionOutcome = z.infer<typeof QuestionOutcome>;

/** The scopes `claude plugin install/update --scope` takes. */
export const PluginScope = z.enum(["user", "project", "local"]);
