import type { SessionUpdate, Slot, WorkerStatus, WorktreeDisposition } from "../../protocol/mod.ts";
import type { Seat } from "../workspace/seats/seat.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";
import type { WorkerRecord } from "./book.ts";
import { branchOf } from "./git.ts";

export type WorkerStatusAction = "added" | "removed" | "status_changed";

/**
 * `worker_status_changed` (the original's update): keyless, so it reaches home. The worker's
 * status is forge's WorkerStatus (protocol/workers.ts): its seat, branch, worktree, session,
 * whether a process runs it and whether a restart brings it back.
 */
export function statusChanged(
  action: WorkerStatusAction,
  rec: WorkerRecord,
  seat: Seat | null,
  worktree: WorktreeDisposition,
): SessionUpdate {
  const status: WorkerStatus = {
    slot: rec.slot,
    label: rec.slot.label,
    charter: rec.charter,
    branch: branchOf(rec.slot.label),
    worktree: rec.worktree,
    session_id: seat?.sessionId() ?? null,
    live: seat?.occupied ?? false,
    durable: rec.live,
    spawned_by: rec.spawned_by,
  };
  return {
    name: "worker_status_changed",
    fields: { project_key: rec.slot.project, action, status, worktree },
  };
}

/** The record of a worker seat forge never remembered (a plain seat on a worker label). */
export function bareRecord(slot: Slot, worktree: string): WorkerRecord {
  return {
    slot,
    charter: "",
    kick: null,
    resume_kick: null,
    interactive: false,
    mcp_families: null,
    worktree,
    spawned_by: { ...slot, label: LEAD_LABEL },
    live: false,
  };
}
