import { z } from "zod";
import { Slot } from "./slot.ts";

// Workers: the commands that spawn, close and despawn a lead's workers, the replies
// two of them answer through (spec: command > reply_to), and the home news they make.
// Where the spec leaves a shape open these are the original forge's: its worker commands and
// their reply bodies, its WorkerSpawnReply, DespawnResult, WrappedPrompt, WorkerStatusAction and
// WorktreeDisposition, and its `worker_status_changed`.

/** The tool families a worker's `mcp_families` may pick, in the original forge's wire order. */
export const MCP_FAMILIES = ["review", "cron", "tasks", "gotify", "slack", "systemone"] as const;
export const McpFamily = z.enum(MCP_FAMILIES);
export type McpFamily = z.infer<typeof McpFamily>;

/**
 * A project as a worker command names it. The original calls it an opaque ProjectKey; forge's
 * key is the project's name (the board's commands name projects the same way).
 */
export const ProjectKey = z.string().min(1);

const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** `spawn_worker` (the original's command; its `return_to` never crosses). */
export const SpawnWorkerFields = obj({
  project_key: ProjectKey,
  label: z.string(),
  charter: z.string(),
  spawned_by: Slot,
  resume_existing: z.string().nullable().optional(),
  kick: z.string().nullable().optional(),
  resume_kick: z.string().nullable().optional(),
  interactive: z.boolean().default(false),
  mcp_families: z.array(z.string()).nullable().optional(),
  from_boot_respawn: z.boolean().default(false),
});
export type SpawnWorkerFields = z.infer<typeof SpawnWorkerFields>;

/** `close_worker` and `despawn_worker`, the original's commands (`respond` never crosses). */
export const CloseWorkerFields = obj({ project_key: ProjectKey, label: z.string() });
export const DespawnWorkerFields = obj({
  project_key: ProjectKey,
  label: z.string(),
  force: z.boolean().default(false),
});

/** A message one agent sends another, as forge wraps it (the original's WrappedPrompt). */
export const WrappedPrompt = obj({
  id: z.string().min(1),
  kind: z.enum(["message", "delivery_failure_notice", "worker_spawn_failed_notice"]),
  sender_name: z.string(),
  sender_org: z.string(),
  body: z.string(),
});
export type WrappedPrompt = z.infer<typeof WrappedPrompt>;

/**
 * The user turn a wrapped message becomes: an envelope line naming the sender (the system prompt
 * tells the agent such a turn is forge's delivery, not the person typing), then the body. A
 * client reads the same line to draw the turn as a delivery row.
 */
export function envelopeText(w: WrappedPrompt): string {
  const head = w.kind === "message"
    ? `[Message id=${w.id} from agent '${w.sender_name}' (org '${w.sender_org}')]`
    : `[Notice id=${w.id} from forge about agent '${w.sender_name}' (org '${w.sender_org}')]`;
  return `${head}\n${w.body}`;
}

/** `deliver_worker_prompt` and `deliver_worker_prompt_to_lead`, the original's commands. */
export const DeliverWorkerPromptFields = obj({
  caller: Slot,
  project_key: ProjectKey,
  target_label: z.string(),
  wrapped: WrappedPrompt,
});
export const DeliverWorkerPromptToLeadFields = obj({
  caller: Slot,
  target_lead_key: Slot,
  wrapped: WrappedPrompt,
});

/**
 * `deliver_peer_prompt` (the original's command): a client delivers a wrapped message to a
 * project's lead, as an agent's agents__send_message does. `target_project` is the project's name;
 * a name two orgs share resolves to the caller's org first.
 */
export const DeliverPeerPromptFields = obj({
  caller: Slot,
  target_project: ProjectKey,
  wrapped: WrappedPrompt,
});
export type DeliverPeerPromptFields = z.infer<typeof DeliverPeerPromptFields>;

/** A spawn's success, the `Ok` arm of the reply body (the original's WorkerSpawnReply). */
export const WorkerSpawnReply = obj({
  session_id: z.string(),
  tag: z.string(),
  mcp_families: z.array(McpFamily).nullable(),
  rate_limited_account: z.string().nullable(),
  durability_warning: z.string().nullable(),
  worktree: z.string().nullable(),
  session_choice: z.enum(["resumed", "fresh", "fresh_without_prior"]),
});
export type WorkerSpawnReply = z.infer<typeof WorkerSpawnReply>;

/** spawn_worker's reply body: serde's `Result`, as the original's reply crosses. */
export const SpawnWorkerBody = z.union([
  obj({ Ok: WorkerSpawnReply }),
  obj({ Err: z.string() }),
]);
export type SpawnWorkerBody = z.infer<typeof SpawnWorkerBody>;

/** despawn_worker's reply body (the original's DespawnResult). */
export const DespawnResult = z.union([
  obj({
    despawned: obj({
      worktree_cleanup_warning: z.string().optional(),
      branch_cleanup_warning: z.string().optional(),
    }),
  }),
  obj({ blocked: obj({ reason: z.string() }) }),
  z.literal("not_found"),
  obj({ failed: obj({ reason: z.string() }) }),
]);
export type DespawnResult = z.infer<typeof DespawnResult>;

export const WorkerStatusAction = z.enum(["added", "removed", "status_changed"]);
export const WorktreeDisposition = z.enum(["absent", "intact", "removed", "removal_failed"]);
export type WorktreeDisposition = z.infer<typeof WorktreeDisposition>;

/**
 * One worker as `worker_status_changed` carries it. The original names the type but not its
 * fields; this is forge's own shape: the seat, its branch and worktree, its session, whether a
 * process runs it, and whether it is remembered for a restart.
 */
export const WorkerStatus = obj({
  slot: Slot,
  label: z.string(),
  charter: z.string(),
  branch: z.string(),
  worktree: z.string(),
  session_id: z.string().nullable(),
  live: z.boolean(),
  durable: z.boolean(),
  spawned_by: Slot,
});
export type WorkerStatus = z.infer<typeof WorkerStatus>;

/** `worker_status_changed`'s fields, as the original's update names them. */
export const WorkerStatusChanged = obj({
  project_key: ProjectKey,
  action: WorkerStatusAction,
  status: WorkerStatus,
  worktree: WorktreeDisposition,
});
export type WorkerStatusChanged = z.infer<typeof WorkerStatusChanged>;
