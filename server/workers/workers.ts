import {
  type DespawnResult,
  type LaunchSettings,
  type SessionUpdate,
  type Slot,
  slotName,
  type WorkerSpawnReply,
  type WorktreeDisposition,
} from "../../protocol/mod.ts";
import type { ProjectConfig } from "../config/types.ts";
import { type Host, Refusal } from "../subsystem.ts";
import type { SeatManager } from "../workspace/seats/manager.ts";
import type { Seat } from "../workspace/seats/seat.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";
import { WorkerBook, type WorkerRecord } from "./book.ts";
import { isDir, isFile } from "../path_kind.ts";
import { bootWorkers, requestOf, stateWords, undoSpawn } from "./boot.ts";
import { deleteBranchIfMerged, makeWorktree, removeWorktree, unsavedWork } from "./git.ts";
import { checkLabel, checkText, findProject, type SpawnRequest, workerLaunch } from "./rules.ts";

import { bareRecord, statusChanged, type WorkerStatusAction } from "./status.ts";

/** What a resumed worker is told when it has no resume kick (workers are durable). */
export const CONTINUE_TEXT =
  "forge resumed this session (a restart, or your lead asked). Continue your charter where you left off.";

/**
 * A project's workers: seats `<org>/<project>/<label>` running the real CLI in their
 * own git worktrees (`<state>/worktrees/<org>/<project>/<label>`, branch `worktree-<label>` from
 * the lead's HEAD), capped by the project's `max_workers`, remembered in the state dir and
 * spawned again after a restart. A spawn that fails half way removes what it made; a despawn
 * keeps unsaved work unless forced; every move is told as `worker_status_changed`.
 */
export class Workers {
  readonly #book: WorkerBook;
  /** Labels being spawned now, per project: counted against the cap and the one-live rule. */
  readonly #starting = new Map<string, Set<string>>();

  constructor(private readonly host: Host, private readonly seats: SeatManager) {
    this.#book = new WorkerBook(host.state, `${host.stateDir}/workers`);
  }

  /**
   * At boot: a spawn a crash cut short is undone (its worktree and branch go, so none is left
   * that no worker owns), then every worker a previous run left live whose worktree is still
   * there is spawned again.
   */
  async boot(): Promise<void> {
    await bootWorkers({
      host: this.host,
      records: await this.#book.load(),
      undo: async (rec) => {
        const project = this.host.workspace.project(rec.slot.org, rec.slot.project);
        if (project) await undoSpawn(project.path, rec.worktree, rec.slot.label);
        await this.seats.forget(rec.slot);
        await this.#book.delete(rec.slot);
      },
      respawn: (rec, project) => this.spawn({ ...requestOf(rec, project), fromBoot: true }),
    });
  }

  project(what: string, key: string): ProjectConfig {
    return findProject(what, this.host.workspace.projects(), key);
  }

  /** The project's live workers (a process occupies the seat). */
  live(project: ProjectConfig): Seat[] {
    return this.seats.seats().filter((s) =>
      s.project.name === project.name && s.project.org === project.org &&
      s.slot.label !== LEAD_LABEL && s.occupied
    );
  }

  /** Whether a process runs the seat now. */
  isLive(slot: Slot): boolean {
    return this.seats.seat(slot)?.occupied ?? false;
  }

  record(slot: Slot): WorkerRecord | undefined {
    return this.#book.get(slot);
  }

  /** agents__capacity's numbers. */
  capacity(project: ProjectConfig) {
    const live = this.live(project).length + (this.#starting.get(key(project))?.size ?? 0);
    const cap = project.max_workers;
    return { project: project.name, cap, live, available: Math.max(0, cap - live) };
  }

  /**
   * Spawns (or resumes) a worker and resolves once its CLI answered and its kick went in.
   * Throws a Refusal naming the broken rule; nothing it made is left behind on a failure.
   */
  async spawn(req: SpawnRequest): Promise<WorkerSpawnReply> {
    const what = "spawn_worker";
    const { project } = req;
    const label = checkLabel(what, req.label);
    const charter = checkText(what, "the charter", req.charter);
    if (req.resumeKick !== null) checkText(what, "resume_kick", req.resumeKick);
    if (req.spawnedBy.label !== LEAD_LABEL) {
      throw new Refusal(what, `${what}: workers cannot spawn other workers; ask your lead`);
    }
    if (req.spawnedBy.org !== project.org || req.spawnedBy.project !== project.name) {
      throw new Refusal(what, `${what}: a lead spawns workers in its own project only`);
    }
    const slot: Slot = { org: project.org, project: project.name, label };
    const name = slotName(slot);
    const starting = this.#startingOf(project);
    if (starting.has(label) || this.seats.seat(slot)?.occupied) {
      throw new Refusal(what, `${what}: ${name} is already live; one live worker per label`);
    }
    const cap = this.capacity(project);
    if (cap.cap === 0) {
      throw new Refusal(
        what,
        `${what}: worker spawns are disabled for ${project.name} (max_workers = 0)`,
      );
    }
    if (cap.available === 0) {
      throw new Refusal(
        what,
        `${what}: ${project.name} already runs ${cap.live} of its ${cap.cap} workers (max_workers); despawn one first`,
      );
    }
    starting.add(label);
    try {
      return await this.#start(slot, charter, req);
    } finally {
      starting.delete(label);
    }
  }

  async #start(slot: Slot, charter: string, req: SpawnRequest): Promise<WorkerSpawnReply> {
    const what = "spawn_worker";
    const repo = req.project.path;
    const worktree = `${this.host.stateDir}/worktrees/${slot.org}/${slot.project}/${slot.label}`;
    const rec: WorkerRecord = {
      slot,
      charter,
      kick: req.kick,
      resume_kick: req.resumeKick,
      interactive: req.interactive,
      mcp_families: req.families,
      worktree,
      spawned_by: req.spawnedBy,
      live: true,
    };
    const known = this.#book.get(slot) !== undefined;
    // A first spawn is written down before anything is made: a crash part way is undone at
    // the next boot, and a book that cannot be written refuses the spawn before it starts.
    if (!known) await this.#remember(what, { ...rec, spawning: true });
    let made: { madeBranch: boolean } | null = null;
    const undo = async () => {
      if (made) await undoSpawn(repo, worktree, slot.label, made.madeBranch);
      if (!known) await this.#book.delete(slot).catch(() => {/* the keeper logged it */});
    };
    if (!(await isDir(worktree))) {
      const added = await makeWorktree(repo, worktree, slot.label);
      if ("why" in added) {
        if (added.unmade) this.host.log.warn("worker_worktree_folder_unmade", added.unmade);
        await undo();
        throw new Refusal(what, `${what}: ${added.why}`);
      }
      made = added;
    }
    const prior = req.resume ? this.seats.lastSession(slot) : undefined;
    const resumed = prior !== undefined && prior.cwd === worktree && await isFile(prior.transcript);
    const sessionId = resumed ? prior.session_id : crypto.randomUUID();
    const seat = await this.seats.startWorker(slot, req.project, {
      cwd: worktree,
      occupancy: resumed ? { resume: sessionId } : { sessionId },
      launch: workerLaunch(slot, worktree, req, charter),
      families: req.families,
    });
    if (!seat.occupied) {
      // A spawn that fails half way removes what it made.
      const why = seat.failureMessage ?? "its CLI did not start";
      await this.seats.forget(slot);
      await undo();
      throw new Refusal(what, `${what}: ${slotName(slot)} did not start: ${why}`);
    }
    // As the original does, a resumed worker is given its resume kick, else told to continue.
    const kick = resumed ? (req.resumeKick ?? CONTINUE_TEXT) : req.kick;
    if (kick) seat.prompt(what, kick, [], crypto.randomUUID(), "forge");
    const durability = await this.#book.set(rec).then(
      () => null,
      (err) =>
        `forge could not remember this worker across a restart: ${stateWords(err, this.host)}`,
    );
    this.#announce(known ? "status_changed" : "added", rec, seat, "intact");
    return {
      session_id: sessionId,
      tag: `forge:worker:${slot.label}`,
      mcp_families: req.families,
      rate_limited_account: null,
      durability_warning: durability,
      worktree,
      session_choice: resumed ? "resumed" : req.resume ? "fresh_without_prior" : "fresh",
    };
  }

  /**
   * Ends a worker and removes its worktree (the original's `despawn_worker`). Unsaved work blocks
   * unless `force`; the branch goes only when every commit on it is reachable from another ref.
   */
  async despawn(project: ProjectConfig, rawLabel: string, force: boolean): Promise<DespawnResult> {
    const label = checkLabel("despawn_worker", rawLabel);
    const slot: Slot = { org: project.org, project: project.name, label };
    const rec = this.#book.get(slot);
    const seat = this.seats.seat(slot);
    if (!rec && !seat) return "not_found";
    const worktree = rec?.worktree ?? seat!.cwd;
    const present = worktree !== project.path && await isDir(worktree);
    const unsaved = present ? await unsavedWork(project.path, worktree, label) : null;
    if (unsaved && !force) {
      return {
        blocked: {
          reason: `${
            slotName(slot)
          }'s worktree ${worktree} holds ${unsaved}; commit and merge it, or despawn with force to discard it`,
        },
      };
    }
    await this.seats.forget(slot);
    const out: { worktree_cleanup_warning?: string; branch_cleanup_warning?: string } = {};
    let disposition: WorktreeDisposition = "absent";
    if (present) {
      const failed = await removeWorktree(project.path, worktree);
      disposition = failed ? "removal_failed" : "removed";
      if (failed) out.worktree_cleanup_warning = failed;
      else if (unsaved) out.worktree_cleanup_warning = `forced: discarded ${unsaved}`;
    }
    const kept = await deleteBranchIfMerged(project.path, label);
    if (kept) out.branch_cleanup_warning = kept;
    await this.#book.delete(slot).catch((err) =>
      out.worktree_cleanup_warning ??= `forge could not forget the worker: ${
        stateWords(err, this.host)
      }`
    );
    this.#announce("removed", rec ?? bareRecord(slot, worktree), null, disposition);
    return { despawned: out };
  }

  /** close_worker: ends the worker's process; its worktree, branch and session stay. */
  async close(project: ProjectConfig, rawLabel: string): Promise<void> {
    const label = checkLabel("close_worker", rawLabel);
    const slot: Slot = { org: project.org, project: project.name, label };
    const rec = this.#book.get(slot);
    const seat = this.seats.seat(slot);
    if (!rec && !seat) {
      throw new Refusal(
        "close_worker",
        `close_worker: ${project.name} has no worker labelled \`${label}\``,
      );
    }
    if (seat?.occupied) await seat.release();
    if (rec) await this.#remember("close_worker", { ...rec, live: false });
    const worktree = rec?.worktree ?? seat!.cwd;
    const disposition = (await isDir(worktree)) ? "intact" : "absent";
    this.#announce(
      "status_changed",
      { ...(rec ?? bareRecord(slot, worktree)), live: false },
      seat ?? null,
      disposition,
    );
  }

  /** close_session of a lead: its project's live workers are closed first. */
  async closeWorkersOf(lead: Slot): Promise<void> {
    const project = this.host.workspace.project(lead.org, lead.project);
    if (!project) return;
    await Promise.all(this.live(project).map((s) => this.close(project, s.slot.label)));
  }

  /** spawn_session with a worker role: the remembered worker, on its prior session. */
  async spawnSession(key: Slot, launch: LaunchSettings): Promise<void> {
    const rec = this.#book.get(key);
    const project = this.host.workspace.project(key.org, key.project);
    if (!rec || !project) {
      throw new Refusal(
        "spawn_session",
        `spawn_session: no worker ${
          slotName(key)
        } is remembered; a lead spawns one (agents__spawn) or a client sends spawn_worker`,
        key,
      );
    }
    await this.spawn({ ...requestOf(rec, project), launch });
  }

  /** agents__update: replaces stored fields for the next respawn. */
  async update(slot: Slot, fields: Partial<WorkerRecord>): Promise<void> {
    const rec = this.#book.get(slot);
    if (!rec) {
      throw new Refusal(
        "agents__update",
        `agents__update: no worker \`${slot.label}\` is remembered in ${slot.project}`,
      );
    }
    await this.#remember("agents__update", { ...rec, ...fields });
  }

  /** A remembered worker's process that ended unasked (a crash, a failed resume) is news too. */
  heard(update: SessionUpdate): void {
    if (update.name !== "connection_failed") return;
    const slot = update.fields?.key as Slot | undefined;
    const rec = slot && slot.label !== LEAD_LABEL ? this.#book.get(slot) : undefined;
    if (!rec) return;
    void isDir(rec.worktree).then((there) =>
      this.#announce(
        "status_changed",
        rec,
        this.seats.seat(rec.slot) ?? null,
        there ? "intact" : "absent",
      )
    );
  }

  stop(): Promise<void> {
    return this.#book.flushed();
  }

  /** Writes a record; a refused or failed write is a Refusal in forge's words. */
  async #remember(what: string, rec: WorkerRecord): Promise<void> {
    try {
      await this.#book.set(rec);
    } catch (err) {
      throw new Refusal(
        what,
        `${what}: forge could not write the worker book, so nothing changed: ${
          stateWords(err, this.host)
        }`,
      );
    }
  }

  #announce(
    action: WorkerStatusAction,
    rec: WorkerRecord,
    seat: Seat | null,
    worktree: WorktreeDisposition,
  ): void {
    this.host.emit(statusChanged(action, rec, seat, worktree));
  }

  #startingOf(project: ProjectConfig): Set<string> {
    let set = this.#starting.get(key(project));
    if (!set) this.#starting.set(key(project), set = new Set());
    return set;
  }
}

function key(p: ProjectConfig): string {
  return `${p.org}/${p.name}`;
}
