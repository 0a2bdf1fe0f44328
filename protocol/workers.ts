import { z } from "zod";
import { Slot } from "./slot.ts";

// Workers: the commands that spawn, close and despawn a lead's workers, the replies
// two of them answer through (spec: command > reply_to), and the home news they make.
// catalogue 1.2 rows 41, 42, 44-46; 1.3 (reply bodies); 1.4 (WorkerSpawnReply, DespawnResult,
// WrappedPrompt, WorkerStatusAction, WorktreeDisposition); 2.3 row 56.

/** The tool families a worker's `mcp_families` may pick, in wire order. mcp_tools.md §2. */
export const MCP_FAMILIES = ["review", "cron", "tasks", "gotify", "slack", "systemone"] as const;
export const McpFamily = z.enum(MCP_FAMILIES);
export type McpFamily = z.infer<typeof McpFamily>;

/**
 * A project as a worker command names it. The catalogue calls it an opaque ProjectKey; forge's
 * key is the project's name (the board's commands name projects the same way).
 */
export const ProjectKey = z.string().min(1);

const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** `spawn_worker` (catalogue 1.2 row 41; `return_to` never crosses). */
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

/** `close_worker` (row 42) and `despawn_worker` (row 44; `respond` never crosses). */
export const CloseWorkerFields = obj({ project_key: ProjectKey, label: z.string() });
export const DespawnWorkerFields = obj({
  project_key: ProjectKey,
  label: z.string(),
  force: z.boolean().default(false),
});

/** A message one agent sends another, as forge wraps it (catalogue 1.4 WrappedPrompt). */
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

/** `deliver_worker_prompt` (row 45) and `deliver_worker_prompt_to_lead` (row 46). */
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
 * `deliver_peer_prompt` (catalogue 1.2 row 40): a client delivers a wrapped message to a project's
 * lead, as an agent's agents__send_message does. `target_project` is the project's name; a name
 * two orgs share resolves to the caller's org first.
 */
export const DeliverPeerPromptFields = obj({
  caller: Slot,
  target_project: ProjectKey,
  wrapped: WrappedPrompt,
});
export type DeliverPeerPromptFields = z.infer<typeof DeliverPeerPromptFields>;

/** A spawn's success, the `Ok` arm of the reply body (catalogue 1.3, 1.4). */
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

/** spawn_worker's reply body: serde's `Result` (catalogue 1.3). */
export const SpawnWorkerBody = z.union([
  obj({ Ok: WorkerSpawnReply }),
  obj({ Err: z.string() }),
]);
export type SpawnWorkerBody = z.infer<typeof SpawnWorkerBody>;

/** despawn_worker's reply body (catalogue 1.4 DespawnResult). */
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
 * One worker as `worker_status_changed` carries it. The catalogue names the type but not its
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

/** `worker_status_changed`'s fields (catalogue 2.3 row 56). */
export const WorkerStatusChanged = obj({
  project_key: ProjectKey,
  action: WorkerStatusAction,
  status: WorkerStatus,
  worktree: WorktreeDisposition,
});
export type WorkerStatusChanged = z.infer<typeof WorkerStatusChanged>;
