import type { CliFrame, KeyedUpdateName, SeatFields } from "../../../protocol/mod.ts";
import { slotName } from "../../../protocol/mod.ts";
import { Refusal } from "../../subsystem.ts";
import type { ClaudeExit, ClaudeProcess, JsonObject } from "../claude/mod.ts";
import type { SeatTools } from "../mcp/bridge.ts";
import type { SeatInfo } from "../workspace.ts";
import type { AskBook } from "./asks.ts";
import { spawnPlanned } from "./occupant.ts";
import { tellFrame } from "./occupant_frames.ts";
import { exitMessage, type Failure, failureOf, noSessionWhy, type Phase } from "./phase.ts";
import { OccupantReads } from "./reads.ts";
import type { SeatEmitter } from "./seat_emit.ts";
import { SeatState } from "./seat_state.ts";
import { type PlannedStart, planStart, type StartOptions, type StartParts } from "./start_plan.ts";

/** How long a fresh CLI has to answer `initialize` (startup is CPU-bound: ~4 s each with four
 * starting at once on two cores, as measured). */
export const INIT_TIMEOUT_MS = 60_000;

/** The parts of its seat a driver works with: named, not reached through the whole seat. */
export interface DriverParts extends StartParts {
  /** The seat's emit path (seat_emit.ts). */
  emitter: SeatEmitter;
  /** The CLI's permission and question asks, parked on the seat (asks.ts). */
  asks: AskBook;
  /** The seat as forge's MCP server names its caller (occupant.ts). */
  info: SeatInfo;
}

/**
 * A seat's CLI driver: its life with its `claude` process. Starting an occupant (planned in
 * start_plan.ts, spawned by occupant.ts), turning every CLI frame into `chat_appended` plus what
 * it implies (occupant_frames.ts, onto the occupant's SeatState), parking the CLI's asks,
 * asking for context and MCP readings, walking the process tree, and ending. A process that
 * ends unasked (a failed start, a crash, a kill) leaves the seat Failed with the exit and stderr
 * tail as `connection_failed`, touching no more. `live` hands the seat's commands the process,
 * or refuses naming why there is none.
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
  /** Resolves once the occupant a start replaced is closed. */
  #retiring: Promise<void> = Promise.resolve();
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
   * is seeded from its transcript before the CLI runs (start_plan.ts). Emits `spawning`, then
   * `connected` (or `session_replaced` when a live occupant was replaced) once the CLI answers
   * `initialize`. Never throws: a launch that cannot happen fails the seat.
   */
  async start(opts: StartOptions): Promise<void> {
    const replacing = this.#phase === "live";
    const gen = await this.#vacate();
    if (gen !== this.#gen) return;
    this.cwd = opts.cwd;
    this.#failure = null;
    this.#startError = null;
    this.#state = new SeatState();
    this.#reads = null;
    const planned = await planStart(this.#p, this.cwd, opts);
    if (gen !== this.#gen || this.#stopped) return;
    this.#emit("spawning", planned.spawning);
    const proc = this.#spawn(planned);
    if (!proc) return;
    this.#occupy(proc, gen, planned.sessionId);
    // The pid is on disk before the CLI is asked anything: a kill of forge from here on leaves
    // it for the next boot's reap (orphans.ts).
    await this.#p.env.pids.admit(
      proc.pid,
      this.name,
      () => this.#handshake(proc, gen, replacing, planned.plan?.model ?? null),
    );
  }

  /** Ends the asks, tools and process of the occupant a start replaces; answers the new gen. */
  async #vacate(): Promise<number> {
    const old = this.#proc;
    const gen = ++this.#gen;
    this.#proc = null;
    this.#phase = "spawning";
    this.#p.asks.clear("the session was replaced");
    this.#endTools("the session was replaced");
    this.#retiring = old ? this.#retire(old) : Promise.resolve();
    await this.#retiring;
    return gen;
  }

  /** Spawns the planned CLI, or fails the seat naming why it could not be started. */
  #spawn(planned: PlannedStart): ClaudeProcess | null {
    try {
      if (!planned.plan) throw planned.refused;
      const spawned = spawnPlanned(planned.plan, { ...this.#p, name: this.name });
      this.#tools = spawned.tools;
      this.#tmpBase = planned.plan.tmpBase;
      this.#state.effort = planned.plan.effort;
      this.#state.permissionMode = planned.plan.permissionMode;
      this.#state.servedModels = [
        ...(planned.plan.model ? [planned.plan.model] : []),
        ...(planned.plan.account?.models ?? []),
      ];
      return spawned.proc;
    } catch (err) {
      this.#fail(`claude could not be started for ${this.name}: ${(err as Error).message}`, null);
      return null;
    }
  }

  /** Makes `proc` the seat's occupant: its readings and its frames read until it exits (its
   * pid is recorded by `start`, before the handshake). */
  #occupy(proc: ClaudeProcess, gen: number, sessionId: string): void {
    this.#proc = proc;
    this.#state.sessionId = sessionId;
    this.#reads = new OccupantReads(proc, {
      name: this.name,
      log: this.#p.env.log,
      state: () => this.#state,
      live: () => this.#proc === proc && this.#phase === "live",
      emit: (name, fields) => this.#emit(name, fields),
    });
    this.#p.env.log.info("seat_spawned", { seat: this.name, pid: proc.pid, cwd: this.cwd });
    const consumed = this.#consume(proc, gen);
    this.#settled = Promise.all([consumed, proc.exited]).then(([, exit]) =>
      this.#exited(proc, gen, exit)
    );
  }

  /**
   * Awaits the CLI's `initialize` answer, then tells the seat live; resolves once either. A
   * close_session or a stop that began while the CLI was starting has the seat from then on: the
   * close ends the process, so the start asks nothing more and makes nothing live, and resolves
   * once the close is done (the exit takes the seat to Sleeping, not Failed).
   */
  async #handshake(
    proc: ClaudeProcess,
    gen: number,
    replacing: boolean,
    model: string | null,
  ): Promise<void> {
    if (gen !== this.#gen) return;
    if (this.#phase !== "spawning") return await this.#settled;
    let ready: JsonObject;
    try {
      const asked = proc.initialize({}, INIT_TIMEOUT_MS);
      this.#p.env.log.debug("seat_initialize_asked", { seat: this.name, pid: proc.pid });
      ready = await asked;
    } catch (err) {
      if (gen !== this.#gen) return;
      if (this.#phase !== "spawning") return await this.#settled;
      // An exit rejects the request too: then the exit itself is the reason, told by #exited.
      const exited = /claude exited/.test((err as Error).message);
      if (!exited) this.#startError = `it did not answer initialize: ${(err as Error).message}`;
      if (!exited) proc.kill("SIGKILL"); // the exit then fails the seat, carrying this reason
      return await this.#settled; // resolves once the seat is Failed, never still Spawning
    }
    if (gen !== this.#gen || this.#proc !== proc) return;
    if (this.#phase !== "spawning") return await this.#settled;
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

  /** close_session: `releasing`, then the process is closed and the seat, Sleeping again, tells
   * `released`. */
  async release(): Promise<void> {
    if (this.#phase === "spawning" && this.#proc === null) return await this.#abandonStart();
    const proc = this.live("close_session");
    this.#phase = "releasing";
    this.#emit("releasing", {});
    if (this.#state.turnInFlight) proc.interrupt().catch(this.#unsent);
    await proc.close();
    await this.#settled;
  }

  /** close_session while a start has spawned nothing yet (it is planning, or closing the
   * occupant it replaces): the start spawns nothing, and the seat sleeps once that occupant is
   * gone. */
  async #abandonStart(): Promise<void> {
    this.#gen++;
    this.#phase = "releasing";
    this.#emit("releasing", {});
    await this.#retiring;
    if (this.#phase !== "releasing") return; // a newer start has the seat
    this.#phase = "sleeping";
    this.#emit("released", {});
  }

  /** Shutdown: stdin EOF, 5 s, SIGTERM, 2 s, SIGKILL (the original's ladder); resolves once reaped. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    const proc = this.#proc;
    if (proc) {
      this.#p.env.log.info("seat_shutdown", { seat: this.name, pid: proc.pid });
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
      this.#lastActivity = Date.now();
      try {
        tellFrame(event.frame as CliFrame, this.#p, { state: this.#state, reads: this.#reads });
      } catch (err) {
        this.#p.env.log.error("seat_frame_failed", { seat: this.name, error: err });
      }
    }
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
    const at = {
      phase: this.#phase,
      startError: this.#startError,
      turnInFlight: this.#state.turnInFlight,
    };
    this.#p.emitter.derived(this.#state.ended());
    if (this.#phase === "releasing") {
      this.#phase = "sleeping";
      // The person hears the close is done; a stopping server's seats end with it unheard.
      if (!this.#stopped) this.#emit("released", {});
      return;
    }
    this.#fail(exitMessage(exit, at), exit);
  }

  #fail(message: string, exit: ClaudeExit | null): void {
    this.#phase = "failed";
    this.#state.turnInFlight = false;
    this.#failure = failureOf(message, exit);
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

  /** The live occupant's process for `command`, or a refusal naming why the seat has none. */
  live(command: string): ClaudeProcess {
    if (this.#proc && this.occupied) return this.#proc;
    const why = noSessionWhy(this.#phase, this.#failure);
    throw this.refuse(command, `the seat has no session (${why})`);
  }

  /** A refusal of `command` on this seat, in its words. */
  refuse(command: string, why: string): Refusal {
    return new Refusal("dispatch", `${command}: ${this.name}: ${why}`, this.#p.slot);
  }
}
