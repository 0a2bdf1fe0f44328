import { slotName } from "../../protocol/mod.ts";
import type { ProjectConfig } from "../config/types.ts";
import { StateWriteError } from "../state/keeper.ts";
import type { Host } from "../subsystem.ts";
import type { WorkerRecord } from "./book.ts";
import { isDir } from "../path_kind.ts";
import { deleteBranch, deleteBranchIfMerged, removeWorktree } from "./git.ts";
import type { SpawnRequest } from "./rules.ts";

/**
 * The workers' boot: a first spawn a crash cut short (its record still `spawning`) is undone,
 * then every worker a previous run left live whose worktree is still there is spawned again
 * (workers are durable, as the original forge's were). A respawn that fails is logged; the
 * others go on.
 */
export async function bootWorkers(o: {
  host: Host;
  records: WorkerRecord[];
  undo: (rec: WorkerRecord) => Promise<void>;
  respawn: (rec: WorkerRecord, project: ProjectConfig) => Promise<unknown>;
}): Promise<void> {
  const { host } = o;
  const respawns = [];
  for (const rec of o.records) {
    if (rec.spawning) {
      host.log.warn("worker_spawn_undone", { worker: slotName(rec.slot), worktree: rec.worktree });
      await o.undo(rec).catch((error) =>
        host.log.error("worker_spawn_undo_failed", { worker: slotName(rec.slot), error })
      );
      continue;
    }
    if (!rec.live) continue;
    const project = host.workspace.project(rec.slot.org, rec.slot.project);
    if (!project) {
      host.log.warn("worker_project_gone", { worker: slotName(rec.slot) });
      continue;
    }
    if (!(await isDir(rec.worktree))) {
      // Like the original forge's: not respawned until a spawn with resume_session recreates it.
      host.log.warn("worker_worktree_gone", { worker: slotName(rec.slot), worktree: rec.worktree });
      continue;
    }
    respawns.push(
      o.respawn(rec, project).catch((error) =>
        host.log.warn("worker_respawn_failed", { worker: slotName(rec.slot), error })
      ),
    );
  }
  await Promise.all(respawns);
}

/**
 * Removes what a spawn made: its worktree, and its branch - whatever it holds when this spawn
 * made it (`madeBranch`), else only when every commit on it is reachable from another ref.
 */
export async function undoSpawn(
  repo: string,
  worktree: string,
  label: string,
  madeBranch?: boolean,
): Promise<void> {
  if (await isDir(worktree)) await removeWorktree(repo, worktree);
  if (madeBranch) await deleteBranch(repo, label);
  else await deleteBranchIfMerged(repo, label);
}

/** The spawn request that brings a remembered worker back on its prior session. */
export function requestOf(rec: WorkerRecord, project: ProjectConfig): SpawnRequest {
  return {
    project,
    label: rec.slot.label,
    charter: rec.charter,
    spawnedBy: rec.spawned_by,
    kick: rec.kick,
    resumeKick: rec.resume_kick,
    interactive: rec.interactive,
    families: rec.mcp_families,
    resume: true,
    fromBoot: false,
  };
}

/** A keeper's refusal passes on in its own words; anything else is logged, not passed on. */
export function stateWords(err: unknown, host: Host): string {
  if (err instanceof StateWriteError) return err.message;
  host.log.error("worker_book_failed", { error: err });
  return "forge could not write it";
}
