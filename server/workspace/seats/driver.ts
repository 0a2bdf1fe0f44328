import type {
  CliFrame,
  KeyedUpdateName,
  LaunchSettings,
  SeatFields,
  Slot,
} from "../../../protocol/mod.ts";
import { slotName } from "../../../protocol/mod.ts";
import type { ProjectConfig } from "../../config/types.ts";
import { Refusal } from "../../subsystem.ts";
import type { ClaudeExit, ClaudeProcess, JsonObject } from "../claude/mod.ts";
import type { SeatInfo } from "../workspace.ts";
import type { AskBook } from "./asks.ts";
import type { SeatEnv } from "./env.ts";
import type { SeatHistory } from "./history.ts";
import { type LaunchPlan, type Occupancy, planLaunch, transcriptOf } from "./launch.ts";
import { OccupantReads } from "./reads.ts";
import { capToolRecord } from "./records.ts";
import type { SeatEmitter } from "./seat_emit.ts";
import { SeatState } from "./seat_state.ts";
import type { SeatTools } from "../mcp/bridge.ts";
import { spawnOccupant } from "./occupant.ts";

export type Phase = "sleeping" | "spawning" | "live" | "releasing" | "failed";

/** How long a fresh CLI has to answer `initialize` (startup is CPU-bound: ~4 s each with four
 * starting at once on two cores, as measured). */
export const INIT_TIMEOUT_MS = 60_000;

export interface StartOptions {
  occupancy: Occupancy;
  cwd: string;
  launch?: LaunchSettings;
}

/** A failed seat's reason and the exit it came from (a type alias: it is checked as a Wire). */
export type Failure = {
  message: string;
  code: number | null;
  signal: string | null;
  stderr_tail: string;
};

/** The parts of its seat a driver works with: named, not reached through the whole seat. */
export interface DriverParts {
  slot: Slot;
  project: ProjectConfig;
  env: SeatEnv;
  /** The seat's conversations: a new occupant's begins here (history.ts). */
  history: SeatHistory;
  /** The seat's emit path (seat_emit.ts). */
  emitter: SeatEmitter;
  /** The CLI's permission and question asks, parked on the seat (asks.ts). */
  asks: AskBook;
  /** The seat as forge's MCP server names its caller (occupant.ts). */
  info: SeatInfo;
}

/**
 * A seat's CLI driver: its life with its `claude` process. Starting an occupant, turning every
 * CLI frame into `chat_appended` plus what it implies (the occupant's SeatState, seat_state.ts),
 * parking the CLI's asks, asking for context and MCP readings, walking the process tree, and
 * ending. A process that ends unasked (a failed start, a crash, a kill) leaves the seat Failed
 * with the exit and stderr tail as `connection_failed`, touching no more. `live` hands the
 * seat's commands the process, or refuses naming why there is none.
 */
export class SeatDriver {
  #phase: Phase = "sleeping";
  #proc: ClaudeProcess | null = null;
  #gen = 0;
  #state = new SeatState();
  /** Set by shutdown: a start still reading its transcript spawns nothing after it. */
  #stopped = false;
  #failure: Failure | null = null;
  #startError: string | null = null;
  #lastActivity: number | null = null;
  #tmpBase = "/tmp";
  /** The occupant's context and MCP readings (reads.ts). */
  #reads: OccupantReads | null = null;
  /** forge's MCP server for the occupant, null without one. */
  #tools: SeatTools | null = null;
  /** Resolves once the occupant's last frame was handled and its exit told. */
  #settled: Promise<void> = Promise.resolve();
  readonly #p: DriverParts;
  readonly #unsent = (error: unknown) => this.#p.env.log.debug("seat_interrupt_unsent", { error });

  constructor(parts: DriverParts, public cwd: string) {
    this.#p = parts;
  }

  get name(): string {
    return slotName(this.#p.slot);
  }

  /** Where the occupant is in its life: sleeping, spawning, live, releasing or failed. */
  get phase(): Phase {
    return this.#phase;
  }

  /** What the occupant has told forge so far (a fresh one for each occupant). */
  get state(): SeatState {
    return this.#state;
  }

  /** Why the seat failed, while it is Failed. */
  get failure(): Failure | null {
    return this.#failure;
  }

  /** When the occupant last sent a frame (ms), null before any. */
  get lastActivity(): number | null {
    return this.#lastActivity;
  }

  /** The occupant's temp base (its tasks' output files live under it). */
  get tmpBase(): string {
    return this.#tmpBase;
  }

  /** The occupant's context and MCP readings, null with no occupant. */
  get reads(): OccupantReads | null {
    return this.#reads;
  }

  /** Whether a process occupies the seat (spawning or live). */
  get occupied(): boolean {
    return this.#proc !== null && (this.#phase === "spawning" || this.#phase === "live");
  }

  get pid(): number | null {
    return this.#proc?.pid ?? null;
  }

  sessionId(): string | null {
    return this.occupied ? this.#state.sessionId : null;
  }

  /**
   * Starts an occupant: a fresh session under a minted id or a resumed one, whose conversation
   * is seeded from its transcript before the CLI runs (history.ts). Emits `spawning`, then
   * `connected` (or `session_replaced` when a live occupant was replaced) once the CLI answers
   * `initialize`. Never throws: a launch that cannot happen fails the seat.
   */
  async start(opts: StartOptions): Promise<void> {
    const replacing = this.#phase === "live";
    const old = this.#proc;
    const gen = ++this.#gen;
    this.#proc = null;
    this.#phase = "spawning";
    this.#p.asks.clear("the session was replaced");
    this.#endTools("the session was replaced");
    if (old) await this.#retire(old);
    if (gen !== this.#gen) return;
    this.cwd = opts.cwd;
    this.#failure = null;
    this.#startError = null;
    this.#state = new SeatState();
    this.#reads = null;
    const config = this.#p.env.config();
    const resumed = "resume" in opts.occupancy;
    const sessionId = "resume" in opts.occupancy ? opts.occupancy.resume : opts.occupancy.sessionId;
    let plan: LaunchPlan | null = null;
    let planned: unknown = null;
    try {
      await this.#p.env.booksWritable(); // a launch the seats' books could not record is refused
      plan = planLaunch({
        config,
        project: this.#p.project,
        cwd: this.cwd,
        occupancy: opts.occupancy,
        launch: opts.launch,
        gateway: this.#p.env.workspace.gateway?.launch(this.#p.slot, this.#p.project),
        forgeArgs: this.#p.env.tools?.launchArgs(),
      });
    } catch (err) {
      planned = err;
    }
    const transcript = plan ? await transcriptOf(plan, sessionId) : null;
    await this.#p.history.begin({ session_id: sessionId, cwd: this.cwd, transcript, resumed });
    if (gen !== this.#gen || this.#stopped) return;
    const account = plan?.account?.display_name ??
      config.orgs.find((o) => o.name === this.#p.project.org)?.accounts[0] ?? null;
    this.#emit("spawning", {
      project_name: this.#p.project.name,
      cwd: this.cwd,
      display_name: account ?? this.#p.project.name,
    });
    let proc: ClaudeProcess;
    let model: string | null;
    try {
      if (!plan) throw planned;
      for (const warning of plan.warnings) {
        this.#p.env.log.warn("seat_env_refused", { seat: this.name, warning });
      }
      const spawned = spawnOccupant(
        {
          bin: plan.bin,
          args: plan.args,
          cwd: plan.cwd,
          env: plan.env,
          canUseTool: (req, signal) => this.#p.asks.park(req, signal),
          onProblem: (what) => this.#p.env.log.warn("seat_cli_problem", { seat: this.name, what }),
        },
        this.#p.info,
        this.#p.env.tools,
      );
      proc = spawned.proc;
      this.#tools = spawned.tools;
      model = plan.model;
      this.#tmpBase = plan.tmpBase;
      this.#state.effort = plan.effort;
      this.#state.permissionMode = plan.permissionMode;
    } catch (err) {
      this.#fail(`claude could not be started for ${this.name}: ${(err as Error).message}`, null);
      return;
    }
    this.#proc = proc;
    this.#state.sessionId = sessionId;
    this.#reads = new OccupantReads(proc, {
      name: this.name,
      log: this.#p.env.log,
      state: () => this.#state,
      live: () => this.#proc === proc && this.#phase === "live",
      emit: (name, fields) => this.#emit(name, fields),
    });
    this.#p.env.pids.add(proc.pid, this.name);
    this.#p.env.log.info("seat_spawned", { seat: this.name, pid: proc.pid, cwd: this.cwd });
    const consumed = this.#consume(proc, gen);
    this.#settled = Promise.all([consumed, proc.exited]).then(([, exit]) =>
      this.#exited(proc, gen, exit)
    );
    let ready: JsonObject;
    try {
      ready = await proc.initialize({}, INIT_TIMEOUT_MS);
    } catch (err) {
      if (gen !== this.#gen) return;
      // An exit rejects the request too: then the exit itself is the reason, told by #exited.
      const exited = /claude exited/.test((err as Error).message);
      if (!exited) this.#startError = `it did not answer initialize: ${(err as Error).message}`;
      if (!exited) proc.kill("SIGKILL"); // the exit then fails the seat, carrying this reason
      return await this.#settled; // resolves once the seat is Failed, never still Spawning
    }
    if (gen !== this.#gen || this.#proc !== proc) return;
    const derived = this.#state.initialize(ready, model);
    this.#phase = "live";
    this.#emit(replacing ? "session_replaced" : "connected", {
      session_id: this.#state.sessionId,
      cwd: this.cwd,
      current_model: this.#state.currentModel(),
      available_models: this.#state.availableModels,
      mode: { permission_mode: this.#state.permissionMode },
      history: [],
      compaction_count: this.#p.history.conversation?.compactionCount ?? 0,
    });
    this.#p.emitter.derived(derived);
    void this.#p.env.workspace.gateway?.connected(this.#p.slot, ready.account);
    // A read that came while the CLI was starting could not ask; it is asked for now.
    if (this.#p.env.watchers.holding(this.#p.slot) > 0) this.askForReads();
  }

  /** close_session: `releasing`, then the process is closed; a lead goes back to Sleeping. */
  async release(): Promise<void> {
    const proc = this.live("close_session");
    this.#phase = "releasing";
    this.#emit("releasing", {});
    if (this.#state.turnInFlight) proc.interrupt().catch(this.#unsent);
    await proc.close();
    await this.#settled;
  }

  /** Shutdown: stdin EOF, 5 s, SIGTERM, 2 s, SIGKILL (the original's ladder); resolves once reaped. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    const proc = this.#proc;
    if (proc) {
      this.#phase = "releasing";
      await proc.close();
    }
    await this.#settled;
  }

  // ---- the process -----------------------------------------------------------------------

  async #consume(proc: ClaudeProcess, gen: number): Promise<void> {
    for await (const event of proc.events()) {
      if (gen !== this.#gen) continue; // a replaced occupant's tail: drained, not shown
      if (event.kind === "bad_line") {
        this.#p.env.log.warn("seat_bad_line", { seat: this.name, reason: event.reason });
        continue;
      }
      try {
        this.#frame(event.frame as CliFrame);
      } catch (err) {
        this.#p.env.log.error("seat_frame_failed", { seat: this.name, error: err });
      }
    }
  }

  #frame(frame: CliFrame): void {
    this.#lastActivity = Date.now();
    this.#chat(capToolRecord(frame, this.#p.env.config().server.tool_record_cap_kb * 1024));
    this.#p.emitter.derived(this.#state.apply(frame));
    if (frame.type === "result") {
      // spec: home > unseen; session > header (context asked again where a page shows it).
      if (this.#p.env.watchers.showing(this.#p.slot) === 0) {
        this.#p.env.workspace.markUnseen(this.#p.slot);
      } else this.#reads?.probe(false);
    }
    if (frame.type !== "system") return;
    if (frame.subtype === "compact_boundary") this.#reads?.probe(true);
    if (frame.subtype === "init") this.#reads?.sawInit(frame);
  }

  #exited(proc: ClaudeProcess, gen: number, exit: ClaudeExit): void {
    this.#p.env.pids.remove(proc.pid);
    this.#p.env.log.info("seat_exited", {
      seat: this.name,
      pid: proc.pid,
      code: exit.code,
      signal: exit.signal,
    });
    if (gen !== this.#gen || this.#proc !== proc) return;
    this.#proc = null;
    this.#p.asks.clear("the CLI process ended");
    this.#endTools("the CLI process ended");
    const hadTree = this.#state.processes !== null;
    this.#state.processes = null;
    if (hadTree) this.#emit("processes_changed", { snapshot: null });
    if (this.#phase === "releasing") {
      this.#phase = "sleeping";
      this.#state.turnInFlight = false;
      return;
    }
    const how = `claude exited (code ${exit.code}${exit.signal ? `, signal ${exit.signal}` : ""})`;
    const when = this.#phase === "spawning"
      ? `before it was ready${this.#startError ? ` (${this.#startError})` : ""}`
      : this.#state.turnInFlight
      ? "mid-turn"
      : "while idle";
    const tail = exit.stderrTail.trim();
    this.#fail(`${how} ${when}${tail ? `; stderr: ${tail.slice(-500)}` : ""}`, exit);
  }

  #fail(message: string, exit: ClaudeExit | null): void {
    this.#phase = "failed";
    this.#state.turnInFlight = false;
    this.#failure = {
      message,
      code: exit?.code ?? null,
      signal: exit?.signal ?? null,
      stderr_tail: exit?.stderrTail ?? "",
    };
    this.#p.env.log.warn("seat_failed", { seat: this.name, message });
    this.#emit("connection_failed", { message, fatal: true });
  }

  /** The occupant's tool calls end `session_ended`, and so do the asks they parked. */
  #endTools(why: string): void {
    this.#tools?.detach(why);
    this.#tools = null;
    this.#p.env.held.endSeat(this.#p.slot, "session_ended");
  }

  async #retire(proc: ClaudeProcess): Promise<void> {
    proc.interrupt().catch(this.#unsent);
    await proc.close();
  }

  /** spec: session > header, mcp: asks the live occupant for the readings it lacks. */
  askForReads(): void {
    this.#reads?.askForReads();
  }

  // ---- emitting --------------------------------------------------------------------------

  /** Emits one keyed update, numbered on the seat's counter, and kept in the window. */
  #emit<N extends KeyedUpdateName>(name: N, fields: SeatFields<N>): void {
    this.#p.emitter.emit(name, fields);
  }

  #chat(msg: CliFrame): void {
    this.#emit("chat_appended", { msg });
  }

  /** The live occupant's process for `command`, or a refusal naming why the seat has none. */
  live(command: string): ClaudeProcess {
    if (this.#proc && this.occupied) return this.#proc;
    const why = this.#phase === "failed"
      ? `it failed: ${this.#failure?.message ?? "unknown"}`
      : this.#phase === "releasing"
      ? "it is being released"
      : "nothing occupies it";
    throw this.refuse(command, `the seat has no session (${why})`);
  }

  /** A refusal of `command` on this seat, in its words. */
  refuse(command: string, why: string): Refusal {
    return new Refusal("dispatch", `${command}: ${this.name}: ${why}`, this.#p.slot);
  }
}
