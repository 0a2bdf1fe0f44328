import type { LaunchSettings, Slot, SpawnRole } from "../../../protocol/mod.ts";
import { slotName } from "../../../protocol/mod.ts";
import type { ProjectConfig } from "../../config/types.ts";
import { Refusal } from "../../subsystem.ts";
import { LEAD_LABEL, notASeat } from "../workspace.ts";
import type { SeatEnv, Watchers } from "./env.ts";
import { PidBook } from "./orphans.ts";
import { probe, readTable } from "./procfs.ts";
import { deliverTo } from "./delivery.ts";
import { isDir, isFile } from "../../path_kind.ts";
import { Seat } from "./seat.ts";
import { SessionBook } from "./session_book.ts";
import type { Workspace } from "../workspace.ts";
import type { Logger } from "../../log.ts";
import type { StateKeeper } from "../../state/keeper.ts";
import type { ForgeConfig } from "../../config/types.ts";
import type { Delivered, Delivery } from "../../subsystem.ts";
import type { ToolBridge } from "../mcp/bridge.ts";
import type { HeldAskRegistry } from "./held.ts";

/** spec: session > processes: a held seat's tree is walked once a second. */
export const WALK_INTERVAL_MS = 1_000;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the workers (server/workers/) lend the seat commands: a worker row's `spawn_session`, and
 * the lead's workers closed before its own `close_session` (spec: close_session).
 */
export interface WorkerHooks {
  spawnSession(key: Slot, launch: LaunchSettings): Promise<void>;
  /** Closes a remembered worker (its record kept); false for a seat that is not one. */
  closeWorker(key: Slot): Promise<boolean>;
  closeWorkersOf(lead: Slot): Promise<void>;
}

/** A worker's start (server/workers/): its worktree, its occupant, its launch and families. */
export interface WorkerStart {
  cwd: string;
  occupancy: { sessionId: string } | { resume: string };
  launch: LaunchSettings;
  /** The tool families it gets beyond the always-on ones; null = all. */
  families: readonly string[] | null;
}

export interface SeatManagerOptions {
  log: Logger;
  config(): ForgeConfig;
  workspace: Workspace;
  /** forge's state directory; the pid book lives in `<stateDir>/seats`. */
  stateDir: string;
  /** The keeper of forge's state files (server/state/): the seats' two books. */
  keeper: StateKeeper;
  watchers: Watchers;
  /** Every seat's held asks; its counter numbers the permission asks too. */
  held: HeldAskRegistry;
  /** forge's MCP server for the seats' CLIs; null runs them without forge's tools. */
  tools: ToolBridge | null;
}

/**
 * Every seat this server runs: the projects' leads (label `lead`) and any other label a
 * `spawn_session` names. At boot it ends what a dead run left behind (orphans.ts), gives every
 * seat the session book remembers its last session (session_book.ts: pageable with no process),
 * then starts each `auto_start` project's lead - resuming its last session when its transcript
 * is there, so a restart loses none of the conversation. A seat is registered with the workspace
 * on first use and answers the home row and session fields itself. Every update another
 * subsystem numbers on a seat's counter reaches its window too (`seat_range` answers any number).
 * Shutdown closes every seat at once.
 */
export class SeatManager {
  readonly #seats = new Map<string, Seat>();
  readonly #env: SeatEnv;
  readonly #pids: PidBook;
  readonly #sessions: SessionBook;
  #unhear: (() => void) | null = null;
  #walker: ReturnType<typeof setInterval> | undefined;
  #walking: Promise<void> | null = null;
  #walkRefused = false;
  readonly #starting = new Map<string, Promise<void>>();
  #stopped = false;
  /** Set by the workers area once it runs. */
  workerHooks: WorkerHooks | null = null;

  constructor(private readonly opts: SeatManagerOptions) {
    this.#pids = new PidBook(opts.keeper, `${opts.stateDir}/seats`, opts.log);
    this.#sessions = new SessionBook(opts.keeper, `${opts.stateDir}/seats`, opts.log);
    this.#env = {
      log: opts.log,
      config: opts.config,
      workspace: opts.workspace,
      watchers: opts.watchers,
      pids: this.#pids,
      sessions: this.#sessions,
      booksWritable: async () => {
        await this.#sessions.writable();
        await this.#pids.writable();
      },
      nextAskSeq: () => opts.held.nextSeq(),
      held: opts.held,
      tools: opts.tools,
    };
  }

  /** Reaps a dead run's leftovers, starts the process walk and the auto_start leads. */
  async boot(): Promise<void> {
    const reaped = await this.#pids.reap();
    if (reaped.length > 0) this.opts.log.warn("seat_orphans_reaped", { pids: reaped });
    this.#unhear = this.opts.workspace.stream.subscribe((n) => {
      if (n.slot) this.seat(n.slot)?.hear(n);
    });
    for (const rec of await this.#sessions.load()) {
      const project = this.opts.workspace.project(rec.slot.org, rec.slot.project);
      if (project) this.#ensure(rec.slot, project).remember(rec);
    }
    this.#walker = setInterval(() => void this.#walk(), WALK_INTERVAL_MS);
    for (const project of this.opts.workspace.projects()) {
      if (!project.auto_start) continue;
      const slot = leadSlot(project);
      const seat = this.#ensure(slot);
      const last = this.#sessions.get(slot);
      if (last && await isFile(last.transcript) && await isDir(last.cwd)) {
        this.opts.log.info("seat_resumed_at_boot", { seat: seat.name, session: last.session_id });
        void seat.start({ occupancy: { resume: last.session_id }, cwd: last.cwd });
      } else {
        void seat.start({ occupancy: { sessionId: crypto.randomUUID() }, cwd: project.path });
      }
    }
  }

  seat(slot: Slot): Seat | undefined {
    return this.#seats.get(slotName(slot));
  }

  seats(): Seat[] {
    return [...this.#seats.values()];
  }

  /** The seat a session command addresses; refused by name when no seat by that name exists. */
  get(command: string, slot: Slot): Seat {
    const seat = this.#seats.get(slotName(slot));
    if (seat) return seat;
    if (this.opts.workspace.seat(slot)) {
      throw new Refusal(
        "dispatch",
        `${command}: ${slotName(slot)}: the seat has no session (nothing occupies it)`,
        slot,
      );
    }
    throw new Refusal("dispatch", `${command}: ${notASeat(slot)}`, slot);
  }

  /** spawn_project: wakes a project's lead (a no-op while it is starting or running). */
  spawnProject(name: string, launch: LaunchSettings): void {
    const project = this.opts.workspace.projects().find((p) => p.name === name);
    if (!project) throw new Refusal("dispatch", `spawn_project: no project is named \`${name}\``);
    this.#wake(leadSlot(project), project, launch);
  }

  /** spawn_session: starts a lead (`"lead"`) or a worker (`{worker: {label}}`) for a project row. */
  async spawnSession(key: Slot, role: SpawnRole, launch: LaunchSettings): Promise<void> {
    const project = this.#project("spawn_session", key);
    // The role's form is the decoder's (protocol/command.ts); its label matching the key is ours.
    if (role === "lead") {
      if (key.label !== LEAD_LABEL) {
        throw new Refusal(
          "dispatch",
          `spawn_session: a lead's label is \`lead\`, not \`${key.label}\``,
          key,
        );
      }
    } else if (role.worker.label !== key.label) {
      throw new Refusal(
        "dispatch",
        `spawn_session: role is "lead" or {"worker": {"label": "${key.label}"}} for ${
          slotName(key)
        }`,
        key,
      );
    } else if (this.workerHooks) {
      // A worker runs in its own worktree with its charter: the workers start it.
      await this.workerHooks.spawnSession(key, launch);
      return;
    }
    this.#wake(key, project, launch);
  }

  /**
   * Starts a worker's occupant in its worktree and resolves once it is live or failed (the
   * caller reads `occupied`). The seat is made on first use; its tool families are set first.
   */
  async startWorker(slot: Slot, project: ProjectConfig, start: WorkerStart): Promise<Seat> {
    const seat = this.#ensure(slot, project);
    seat.families = start.families;
    await seat.start({ occupancy: start.occupancy, cwd: start.cwd, launch: start.launch });
    return seat;
  }

  /** The session a seat last held (the session book), if any. */
  lastSession(slot: Slot): { session_id: string; cwd: string; transcript: string } | undefined {
    return this.#sessions.get(slot);
  }

  /** Ends a worker's process (if any) and forgets its seat: its row leaves home. */
  async forget(slot: Slot): Promise<void> {
    const seat = this.seat(slot);
    if (seat?.occupied) await seat.release();
    else if (seat) await seat.shutdown();
    this.#seats.delete(slotName(slot));
    this.opts.workspace.removeSeat(slot);
    this.#sessions.delete(slot);
  }

  /** new_session: a fresh occupant in `cwd` (the current one, if any, is closed first). */
  async newSession(key: Slot, cwd: string, launch: LaunchSettings): Promise<void> {
    const project = this.#project("new_session", key);
    await this.#mustBeDir("new_session", key, cwd);
    const seat = this.#ensure(key, project);
    void seat.start({ occupancy: { sessionId: crypto.randomUUID() }, cwd, launch });
  }

  /** resume_session: puts an existing session id on the seat (`--resume`). */
  async resumeSession(
    key: Slot,
    sessionId: string,
    cwd: string,
    launch: LaunchSettings,
  ): Promise<void> {
    const project = this.#project("resume_session", key);
    if (!UUID_RE.test(sessionId)) {
      throw new Refusal("dispatch", `resume_session: \`${sessionId}\` is not a session id`, key);
    }
    await this.#mustBeDir("resume_session", key, cwd);
    const seat = this.#ensure(key, project);
    void seat.start({ occupancy: { resume: sessionId }, cwd, launch });
  }

  /** close_session: releases the seat (a lead's workers first); a worker's seat is forgotten
   * once its process is gone. */
  async closeSession(key: Slot): Promise<void> {
    const seat = this.get("close_session", key);
    if (key.label === LEAD_LABEL) await this.workerHooks?.closeWorkersOf(key);
    else if (await this.workerHooks?.closeWorker(key)) return;
    await seat.release();
    if (key.label !== LEAD_LABEL && !seat.occupied) {
      this.#seats.delete(slotName(key));
      this.opts.workspace.removeSeat(key);
      this.#sessions.delete(key);
    }
  }

  /**
   * Host.deliver: forges a user turn into a seat (delivery.ts). A sleeping lead is started first
   * on the session the book remembers; rejects with a sentence when the seat cannot take it.
   */
  async deliver(slot: Slot, delivery: Delivery): Promise<Delivered> {
    const project = this.opts.workspace.project(slot.org, slot.project);
    if (!project) throw new Error(`no project ${slot.org}/${slot.project} is declared`);
    return await deliverTo(this.#ensure(slot, project), delivery, {
      projectPath: project.path,
      starting: this.#starting,
      last: () => this.#sessions.get(slot),
      log: this.opts.log,
      workspace: this.opts.workspace,
    });
  }

  /** Closes every seat at once (each: EOF, 5 s, SIGTERM, 2 s, SIGKILL) and stops the walk. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#walker);
    await this.#walking;
    await Promise.all(this.seats().map((s) => s.shutdown()));
    this.#unhear?.();
    await this.#pids.flushed();
    await this.#sessions.flushed();
  }

  #wake(slot: Slot, project: ProjectConfig, launch: LaunchSettings): void {
    const seat = this.#ensure(slot, project);
    if (seat.occupied) return;
    void seat.start({ occupancy: { sessionId: crypto.randomUUID() }, cwd: project.path, launch });
  }

  #ensure(slot: Slot, project?: ProjectConfig): Seat {
    const name = slotName(slot);
    let seat = this.#seats.get(name);
    if (seat) return seat;
    const owner = project ?? this.opts.workspace.project(slot.org, slot.project)!;
    seat = new Seat(slot, owner, owner.path, this.#env);
    this.#seats.set(name, seat);
    this.opts.workspace.registerSeat(seat);
    return seat;
  }

  #project(command: string, key: Slot): ProjectConfig {
    const project = this.opts.workspace.project(key.org, key.project);
    if (!project) {
      throw new Refusal(
        "dispatch",
        `${command}: ${slotName(key)}: no project ${key.org}/${key.project} is declared`,
        key,
      );
    }
    return project;
  }

  async #mustBeDir(command: string, key: Slot, cwd: string): Promise<void> {
    if (await isDir(cwd)) return;
    throw new Refusal("dispatch", `${command}: ${slotName(key)}: ${cwd} is not a directory`, key);
  }

  /** One walk for every held seat; a walk still running when the next tick comes is not doubled. */
  async #walk(): Promise<void> {
    if (this.#walking || this.#stopped) return;
    const held = this.seats().filter((s) => s.occupied && this.opts.watchers.holding(s.slot) > 0);
    if (held.length === 0) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#walking = promise;
    try {
      // Only the held seats' trees are read where /proc allows it (proc_files.ts readSubtrees).
      const roots = held.flatMap((s) => s.pid === null ? [] : [s.pid]);
      const table = await readTable(roots);
      if (!table) {
        if (!this.#walkRefused) {
          this.opts.log.warn("seat_process_walk_unavailable", { why: probe().why });
        }
        this.#walkRefused = true;
        return;
      }
      for (const seat of held) {
        try {
          seat.walk(table);
        } catch (err) {
          this.opts.log.warn("seat_walk_failed", { seat: seat.name, error: err });
        }
      }
    } finally {
      this.#walking = null;
      resolve();
    }
  }
}

function leadSlot(project: ProjectConfig): Slot {
  return { org: project.org, project: project.name, label: LEAD_LABEL };
}
