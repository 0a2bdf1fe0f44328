import type {
  AgentRow,
  CallOutput,
  KeyedUpdateName,
  PendingAsk,
  PermissionMode,
  SeatFields,
  Slot,
  Wire,
} from "../../../protocol/mod.ts";
import { slotName } from "../../../protocol/mod.ts";
import type { ProjectConfig } from "../../config/types.ts";
import { Refusal } from "../../subsystem.ts";
import type { NumberedUpdate } from "../stream.ts";
import type { SeatInfo } from "../workspace.ts";
import { AskBook } from "./asks.ts";
import { SeatCommands } from "./commands.ts";
import type { PageBody } from "./transcript_pages.ts";
import type { RangeFrame } from "./seat_range.ts";
import { SeatDriver } from "./driver.ts";
import type { SeatEnv } from "./env.ts";
import { SeatHistory } from "./history.ts";
import type { ProcTable } from "./procfs.ts";
import { homeRow, type Lifecycle, lifecycleOf, type RowSource, seatSessionFields } from "./rows.ts";
import { SeatEmitter } from "./seat_emit.ts";
import type { SessionRecord } from "./session_book.ts";
import type { StartOptions } from "./start_plan.ts";
import type { FrameWindow } from "./window.ts";

export { INIT_TIMEOUT_MS } from "./driver.ts";
export type { StartOptions } from "./start_plan.ts";
export type { Lifecycle } from "./rows.ts";

/**
 * One seat, `<org>/<project>/<label>`, as the rest of the server sees it: the seat commands
 * over parts it composes, each behind its own narrow interface. The driver
 * (driver.ts) lives the seat's life with its `claude` process and holds the occupant's state
 * (seat_state.ts); the history (history.ts) holds the conversations and their window; the
 * emitter (seat_emit.ts) numbers the seat's updates and keeps them in that window; the asks
 * (asks.ts) park the CLI's questions; the commands (commands.ts) act on the live occupant; the
 * rows renderer (rows.ts) draws the home `agents` row and the session fields from what the parts
 * hold. docs/architecture.md > The seat.
 */
export class Seat implements SeatInfo {
  /** A worker's tool families beyond the always-on ones; null = every family. */
  families: readonly string[] | null = null;
  readonly #history: SeatHistory;
  readonly #emitter: SeatEmitter;
  readonly #asks: AskBook;
  readonly #driver: SeatDriver;
  readonly #commands: SeatCommands;

  constructor(
    readonly slot: Slot,
    readonly project: ProjectConfig,
    cwd: string,
    private readonly env: SeatEnv,
  ) {
    this.#history = new SeatHistory(slot, env);
    this.#emitter = new SeatEmitter(slot, {
      emit: (u) => env.workspace.emit(u),
      push: (seq, u) => this.#history.push(seq, u),
    });
    this.#asks = new AskBook(slot, {
      emit: (name, fields) => this.#emit(name, fields),
      nextSeq: () => env.nextAskSeq(),
    });
    this.#driver = new SeatDriver({
      slot,
      project,
      env,
      history: this.#history,
      emitter: this.#emitter,
      asks: this.#asks,
      info: this,
    }, cwd);
    this.#commands = new SeatCommands({
      slot,
      name: this.name,
      env,
      driver: this.#driver,
      history: this.#history,
      asks: this.#asks,
      emitter: this.#emitter,
    });
  }

  get name(): string {
    return slotName(this.slot);
  }

  /** The seat's working directory: its occupant's, or the one it was declared with. */
  get cwd(): string {
    return this.#driver.cwd;
  }

  get lifecycle(): Lifecycle {
    const waiting = this.#asks.size > 0 || this.env.held.list(this.slot).length > 0;
    const { turnInFlight, loggedOut } = this.#driver.state;
    return lifecycleOf({ phase: this.#driver.phase, waiting, turnInFlight, loggedOut });
  }

  /** Whether a process occupies the seat (spawning or live). */
  get occupied(): boolean {
    return this.#driver.occupied;
  }

  /** The conversation's held frames (the current or last occupant's). */
  get window(): FrameWindow {
    return this.#history.window;
  }

  get pid(): number | null {
    return this.#driver.pid;
  }

  sessionId(): string | null {
    return this.#driver.sessionId();
  }

  /** The newest start: resolves once its CLI answered `initialize` (or the start failed). */
  started: Promise<void> = Promise.resolve();

  /** Starts an occupant (SeatDriver.start): never throws; a launch that cannot happen fails it. */
  start(opts: StartOptions): Promise<void> {
    return (this.started = this.#driver.start(opts));
  }

  /** Whether a start is under way (a delivery waits for it rather than writing too early). */
  get spawning(): boolean {
    return this.#driver.phase === "spawning";
  }

  /** close_session: `releasing`, then the process is closed and the seat, Sleeping again, tells
   * `released`. */
  release(): Promise<void> {
    return this.#driver.release();
  }

  /** Shutdown: stdin EOF, 5 s, SIGTERM, 2 s, SIGKILL (the original's ladder); resolves once reaped. */
  shutdown(): Promise<void> {
    return this.#driver.shutdown();
  }

  /** An update another part of the server numbered on this seat's counter (a subsystem's): the
   * window holds every number, so `seat_range` can answer it (seat_emit.ts). */
  hear(n: NumberedUpdate): void {
    this.#emitter.hear(n);
  }

  // ---- commands (commands.ts) ----------------------------------------------------------

  /** Why the seat failed, while it is Failed. */
  get failureMessage(): string | null {
    return this.#driver.failure?.message ?? null;
  }

  /** prompt / prompt_under (commands.ts). */
  prompt(...a: Parameters<SeatCommands["prompt"]>): void {
    this.#commands.prompt(...a);
  }

  /** replay_conversation (commands.ts). */
  replay(): Promise<void> {
    return this.#commands.replay();
  }

  /** cancel (commands.ts). */
  cancel(): void {
    this.#commands.cancel();
  }

  /** cancel_queued_prompt (commands.ts). */
  cancelQueued(uuid: string): void {
    this.#commands.cancelQueued(uuid);
  }

  /** set_mode (commands.ts). */
  setMode(mode: PermissionMode): void {
    this.#commands.setMode(mode);
  }

  /** set_model (commands.ts). */
  setModel(model: string): void {
    this.#commands.setModel(model);
  }

  /** respond_permission (commands.ts). */
  respondPermission(...a: Parameters<SeatCommands["respondPermission"]>): void {
    this.#commands.respondPermission(...a);
  }

  /** respond_question (commands.ts). */
  respondQuestion(...a: Parameters<SeatCommands["respondQuestion"]>): void {
    this.#commands.respondQuestion(...a);
  }

  /** reconnect_mcp_server / toggle_mcp_server (commands.ts). */
  mcpOperation(...a: Parameters<SeatCommands["mcpOperation"]>): void {
    this.#commands.mcpOperation(...a);
  }

  /** read_call_output (commands.ts): answered to the asker alone. */
  readCallOutput(callId: string): Promise<CallOutput> {
    return this.#commands.readCallOutput(callId);
  }

  /** One walk of the process tree under the CLI (commands.ts). */
  walk(table: ProcTable): void {
    this.#commands.walk(table);
  }

  // ---- reads -----------------------------------------------------------------------------

  /** SeatInfo.toolFamilies: the families a worker was given. */
  toolFamilies(): readonly string[] | null {
    return this.families;
  }

  /** spec: session > pending_asks: the held kinds lead (held.ts), then the CLI's own asks
   * (permission, question) in arrival order. */
  pendingAsks(): PendingAsk[] {
    return [...this.env.held.list(this.slot), ...this.#asks.list()];
  }

  /** The seat's home `agents` row (rows.ts). */
  homeRow(): Promise<AgentRow> {
    const authRequired = this.env.workspace.gateway?.authRequired(this.slot) ?? false;
    return homeRow(this.#rows(), this.lifecycle, authRequired);
  }

  /** The seat's own session fields (rows.ts); a read with no context reading or MCP snapshot
   * asks. The conversation is the current (or last) occupant's newest page (history.ts). */
  async sessionFields(): Promise<Record<string, Wire>> {
    if (this.#driver.phase === "live") this.#driver.askForReads();
    const rows = this.#rows();
    return {
      ...seatSessionFields(rows, {
        seq: this.env.workspace.stream.nextSeq(this.slot),
        conversation: await this.#history.snapshot(),
        handingOff: this.env.held.handingOff(this.slot),
        dictate: this.env.config().areas.dictate ?? {},
      }),
      failure: rows.failure,
    };
  }

  /** What the rows renderer reads of the parts, now. */
  #rows(): RowSource {
    const d = this.#driver;
    return {
      slot: this.slot,
      project: this.project,
      cwd: d.cwd,
      phase: d.phase,
      occupied: d.occupied,
      state: d.state,
      failure: d.failure,
      lastActivity: d.lastActivity,
      pendingAsks: this.pendingAsks(),
      sessionId: this.sessionId(),
    };
  }

  // ---- the conversation (spec: more, seat_range) ------------------------------------------

  /** The session a previous run of the server left on this seat (the session book): its
   * conversation stays pageable with no process (seeded on the first read). */
  remember(rec: SessionRecord): void {
    this.#history.remember(rec);
  }

  /** `more`: a page of the seat's conversation (seats/conversation.ts); refused naming `more`
   * when the seat has none to page or the cursor is not one it can place. */
  more(before: string | null, turns: number): Promise<PageBody> {
    return this.#history.more(before, turns);
  }

  /**
   * `seat_range`: the frames numbered `from..=to` in the occupant's epoch. Refused naming
   * `seat_range` (spec: "means read the seat again") when the seat holds no session, when `epoch`
   * is not the occupant's session id, or when the range is not one of numbers already minted.
   */
  async range(epoch: string, from: number, to: number): Promise<RangeFrame[]> {
    const refuse = (why: string) =>
      new Refusal("seat_range", `seat_range: ${this.name}: ${why}`, this.slot);
    const occupant = this.sessionId();
    if (occupant === null) throw refuse("the seat holds no session; read the seat again");
    if (epoch !== occupant) {
      throw refuse(
        `epoch ${epoch} is not the occupant's session ${occupant}: those numbers belong to another conversation; read the seat again`,
      );
    }
    // As the original orders them: a held batch goes out before any answer.
    this.env.workspace.stream.flush(this.slot);
    const next = this.env.workspace.stream.nextSeq(this.slot);
    if (from > to) throw refuse(`from ${from} is after to ${to}`);
    if (to >= next) throw refuse(`to ${to} is past the seat's last number ${next - 1}`);
    return await this.#history.range(from, to);
  }

  #emit<N extends KeyedUpdateName>(name: N, fields: SeatFields<N>): void {
    this.#emitter.emit(name, fields);
  }
}
