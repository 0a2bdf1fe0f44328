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
import { AskBook } from "./asks.ts";
import type { SeatEnv } from "./env.ts";
import type { NumberedUpdate } from "../stream.ts";
import { SeatHistory } from "./history.ts";
import { type LaunchPlan, type Occupancy, planLaunch, transcriptOf } from "./launch.ts";
import { OccupantReads } from "./reads.ts";
import { capToolRecord } from "./records.ts";
import { SeatEmitter } from "./seat_emit.ts";
import { SeatState } from "./seat_state.ts";
import type { FrameWindow } from "./window.ts";
import type { SeatTools } from "../mcp/bridge.ts";
import { spawnOccupant } from "./occupant.ts";

export type Lifecycle = "Sleeping" | "Spawning" | "Idle" | "Running" | "Attention" | "Failed";
type Phase = "sleeping" | "spawning" | "live" | "releasing" | "failed";

/** How long a fresh CLI has to answer `initialize` (startup is CPU-bound: ~4 s each with four
 * starting at once on two cores, harness report §10). */
export const INIT_TIMEOUT_MS = 60_000;

export interface StartOptions {
  occupancy: Occupancy;
  cwd: string;
  launch?: LaunchSettings;
}

/** A failed seat's reason and the exit it came from (a type alias: it is checked as a Wire). */
type Failure = {
  message: string;
  code: number | null;
  signal: string | null;
  stderr_tail: string;
};

/**
 * A seat's life with its `claude` process (seat.ts adds the commands and the reads): starting an
 * occupant, turning every CLI frame into `chat_appended` plus what it implies (seat_state.ts),
 * parking the CLI's asks (asks.ts), keeping the numbered frames (window.ts), asking for context
 * and MCP readings, and ending. A process that ends unasked (a failed start, a crash, a kill)
 * leaves the seat Failed with the exit and stderr tail as `connection_failed`, touching no more.
 */
export abstract class SeatCore {
  protected phase: Phase = "sleeping";
  protected proc: ClaudeProcess | null = null;
  #gen = 0;
  protected state = new SeatState();
  /** The conversations: the occupant's (window and transcript) and the earlier ones. */
  protected readonly history: SeatHistory;
  readonly #emitter: SeatEmitter;
  /** Set by shutdown: a start still reading its transcript spawns nothing after it. */
  #stopped = false;
  protected readonly asks: AskBook;
  protected failure: Failure | null = null;
  #startError: string | null = null;
  protected lastActivity: number | null = null;
  protected tmpBase = "/tmp";
  /** The occupant's context and MCP readings (reads.ts). */
  protected occupantReads: OccupantReads | null = null;
  /** forge's MCP server for the occupant, null without one. */
  #tools: SeatTools | null = null;
  /** A worker's tool families beyond the always-on ones; null = every family. */
  families: readonly string[] | null = null;
  /** Resolves once the occupant's last frame was handled and its exit told. */
  #settled: Promise<void> = Promise.resolve();

  constructor(
    readonly slot: Slot,
    readonly project: ProjectConfig,
    public cwd: string,
    protected readonly env: SeatEnv,
  ) {
    this.history = new SeatHistory(slot, env);
    this.#emitter = new SeatEmitter(slot, {
      emit: (u) => env.workspace.emit(u),
      push: (seq, u) => this.history.push(seq, u),
    });
    this.asks = new AskBook(slot, {
      emit: (name, fields) => this.emit(name, fields),
      nextSeq: () => env.nextAskSeq(),
    });
  }

  get name(): string {
    return slotName(this.slot);
  }

  /** Whether a process occupies the seat (spawning or live). */
  get occupied(): boolean {
    return this.proc !== null && (this.phase === "spawning" || this.phase === "live");
  }

  /** The conversation's held frames (the current or last occupant's). */
  get window(): FrameWindow {
    return this.history.window;
  }

  get pid(): number | null {
    return this.proc?.pid ?? null;
  }

  sessionId(): string | null {
    return this.occupied ? this.state.sessionId : null;
  }

  /**
   * Starts an occupant: a fresh session under a minted id or a resumed one, whose conversation
   * is seeded from its transcript before the CLI runs (history.ts). Emits `spawning`, then
   * `connected` (or `session_replaced` when a live occupant was replaced) once the CLI answers
   * `initialize`. Never throws: a launch that cannot happen fails the seat.
   */
  async start(opts: StartOptions): Promise<void> {
    const replacing = this.phase === "live";
    const old = this.proc;
    const gen = ++this.#gen;
    this.proc = null;
    this.phase = "spawning";
    this.asks.clear("the session was replaced");
    this.#endTools("the session was replaced");
    if (old) await this.#retire(old);
    if (gen !== this.#gen) return;
    this.cwd = opts.cwd;
    this.failure = null;
    this.#startError = null;
    this.state = new SeatState();
    this.occupantReads = null;
    const config = this.env.config();
    const resumed = "resume" in opts.occupancy;
    const sessionId = "resume" in opts.occupancy ? opts.occupancy.resume : opts.occupancy.sessionId;
    let plan: LaunchPlan | null = null;
    let planned: unknown = null;
    try {
      await this.env.booksWritable(); // a launch the seats' books could not record is refused
      plan = planLaunch({
        config,
        project: this.project,
        cwd: this.cwd,
        occupancy: opts.occupancy,
        launch: opts.launch,
        gateway: this.env.workspace.gateway?.launch(this.slot, this.project),
        forgeArgs: this.env.tools?.launchArgs(),
      });
    } catch (err) {
      planned = err;
    }
    const transcript = plan ? await transcriptOf(plan, sessionId) : null;
    await this.history.begin({ session_id: sessionId, cwd: this.cwd, transcript, resumed });
    if (gen !== this.#gen || this.#stopped) return;
    const account = plan?.account?.display_name ??
      config.orgs.find((o) => o.name === this.project.org)?.accounts[0] ?? null;
    this.emit("spawning", {
      project_name: this.project.name,
      cwd: this.cwd,
      display_name: account ?? this.project.name,
    });
    let proc: ClaudeProcess;
    let model: string | null;
    try {
      if (!plan) throw planned;
      for (const warning of plan.warnings) {
        this.env.log.warn("seat_env_refused", { seat: this.name, warning });
      }
      const spawned = spawnOccupant(
        {
          bin: plan.bin,
          args: plan.args,
          cwd: plan.cwd,
          env: plan.env,
          canUseTool: (req, signal) => this.asks.park(req, signal),
          onProblem: (what) => this.env.log.warn("seat_cli_problem", { seat: this.name, what }),
        },
        this,
        this.env.tools,
      );
      proc = spawned.proc;
      this.#tools = spawned.tools;
      model = plan.model;
      this.tmpBase = plan.tmpBase;
      this.state.effort = plan.effort;
      this.state.permissionMode = plan.permissionMode;
    } catch (err) {
      this.#fail(`claude could not be started for ${this.name}: ${(err as Error).message}`, null);
      return;
    }
    this.proc = proc;
    this.state.sessionId = sessionId;
    this.occupantReads = new OccupantReads(proc, {
      name: this.name,
      log: this.env.log,
      state: () => this.state,
      live: () => this.proc === proc && this.phase === "live",
      emit: (name, fields) => this.emit(name, fields),
    });
    this.env.pids.add(proc.pid, this.name);
    this.env.log.info("seat_spawned", { seat: this.name, pid: proc.pid, cwd: this.cwd });
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
      if (!/claude exited/.test((err as Error).message)) {
        this.#startError = `it did not answer initialize: ${(err as Error).message}`;
        proc.kill("SIGKILL"); // the exit then fails the seat, carrying this reason
      }
      return await this.#settled; // resolves once the seat is Failed, never still Spawning
    }
    if (gen !== this.#gen || this.proc !== proc) return;
    const derived = this.state.initialize(ready, model);
    this.phase = "live";
    this.emit(replacing ? "session_replaced" : "connected", {
      session_id: this.state.sessionId,
      cwd: this.cwd,
      current_model: this.state.currentModel(),
      available_models: this.state.availableModels,
      mode: { permission_mode: this.state.permissionMode },
      history: [],
      compaction_count: this.history.conversation?.compactionCount ?? 0,
    });
    this.#emitter.derived(derived);
    void this.env.workspace.gateway?.connected(this.slot, ready.account);
    // A read that came while the CLI was starting could not ask; it is asked for now.
    if (this.env.watchers.holding(this.slot) > 0) this.occupantReads?.askForReads();
  }

  /** close_session: `releasing`, then the process is closed; a lead goes back to Sleeping. */
  async release(): Promise<void> {
    const proc = this.live("close_session");
    this.phase = "releasing";
    this.emit("releasing", {});
    if (this.state.turnInFlight) {
      proc.interrupt().catch((error) => this.env.log.debug("seat_interrupt_unsent", { error }));
    }
    await proc.close();
    await this.#settled;
  }

  /** Shutdown: stdin EOF, 5 s, SIGTERM, 2 s, SIGKILL (catalogue 6.2); resolves once reaped. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    const proc = this.proc;
    if (proc) {
      this.phase = "releasing";
      await proc.close();
    }
    await this.#settled;
  }

  // ---- the process -----------------------------------------------------------------------

  async #consume(proc: ClaudeProcess, gen: number): Promise<void> {
    for await (const event of proc.events()) {
      if (gen !== this.#gen) continue; // a replaced occupant's tail: drained, not shown
      if (event.kind === "bad_line") {
        this.env.log.warn("seat_bad_line", { seat: this.name, reason: event.reason });
        continue;
      }
      try {
        this.#frame(event.frame as CliFrame);
      } catch (err) {
        this.env.log.error("seat_frame_failed", { seat: this.name, error: err });
      }
    }
  }

  #frame(frame: CliFrame): void {
    this.lastActivity = Date.now();
    this.chat(capToolRecord(frame, this.env.config().server.tool_record_cap_kb * 1024));
    this.#emitter.derived(this.state.apply(frame));
    if (frame.type === "result") {
      // spec: home > unseen; session > header (context asked again where a page shows it).
      if (this.env.watchers.showing(this.slot) === 0) this.env.workspace.markUnseen(this.slot);
      else this.occupantReads?.probe(false);
    }
    if (frame.type !== "system") return;
    if (frame.subtype === "compact_boundary") this.occupantReads?.probe(true);
    if (frame.subtype === "init") this.occupantReads?.sawInit(frame);
  }

  #exited(proc: ClaudeProcess, gen: number, exit: ClaudeExit): void {
    this.env.pids.remove(proc.pid);
    this.env.log.info("seat_exited", {
      seat: this.name,
      pid: proc.pid,
      code: exit.code,
      signal: exit.signal,
    });
    if (gen !== this.#gen || this.proc !== proc) return;
    this.proc = null;
    this.asks.clear("the CLI process ended");
    this.#endTools("the CLI process ended");
    const hadTree = this.state.processes !== null;
    this.state.processes = null;
    if (hadTree) this.emit("processes_changed", { snapshot: null });
    if (this.phase === "releasing") {
      this.phase = "sleeping";
      this.state.turnInFlight = false;
      return;
    }
    const how = `claude exited (code ${exit.code}${exit.signal ? `, signal ${exit.signal}` : ""})`;
    const when = this.phase === "spawning"
      ? `before it was ready${this.#startError ? ` (${this.#startError})` : ""}`
      : this.state.turnInFlight
      ? "mid-turn"
      : "while idle";
    const tail = exit.stderrTail.trim();
    this.#fail(`${how} ${when}${tail ? `; stderr: ${tail.slice(-500)}` : ""}`, exit);
  }

  #fail(message: string, exit: ClaudeExit | null): void {
    this.phase = "failed";
    this.state.turnInFlight = false;
    this.failure = {
      message,
      code: exit?.code ?? null,
      signal: exit?.signal ?? null,
      stderr_tail: exit?.stderrTail ?? "",
    };
    this.env.log.warn("seat_failed", { seat: this.name, message });
    this.emit("connection_failed", { message, fatal: true });
  }

  /** The occupant's tool calls end `session_ended`, and so do the asks they parked. */
  #endTools(why: string): void {
    this.#tools?.detach(why);
    this.#tools = null;
    this.env.held.endSeat(this.slot, "session_ended");
  }

  async #retire(proc: ClaudeProcess): Promise<void> {
    // An interrupt the ending process cannot take any more changes nothing: close ends it.
    proc.interrupt().catch((error) => this.env.log.debug("seat_interrupt_unsent", { error }));
    await proc.close();
  }

  // ---- emitting --------------------------------------------------------------------------

  /** Emits one keyed update, numbered on the seat's counter, and keeps it in the window. */
  protected emit<N extends KeyedUpdateName>(name: N, fields: SeatFields<N>): void {
    this.#emitter.emit(name, fields);
  }

  /** An update another part of the server numbered on this seat's counter (a subsystem's): the
   * window holds every number, so `seat_range` can answer it (seat_emit.ts). */
  hear(n: NumberedUpdate): void {
    this.#emitter.hear(n);
  }

  protected chat(msg: CliFrame): void {
    this.emit("chat_appended", { msg });
  }

  protected notice(text: string): void {
    this.emit("notice", { severity: "error", text });
  }

  protected live(command: string): ClaudeProcess {
    if (this.proc && this.occupied) return this.proc;
    const why = this.phase === "failed"
      ? `it failed: ${this.failure?.message ?? "unknown"}`
      : this.phase === "releasing"
      ? "it is being released"
      : "nothing occupies it";
    throw this.refuse(command, `the seat has no session (${why})`);
  }

  protected refuse(command: string, why: string): Refusal {
    return new Refusal("dispatch", `${command}: ${this.name}: ${why}`, this.slot);
  }
}
