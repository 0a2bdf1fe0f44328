import type {
  CliFrame,
  LaunchSettings,
  PermissionOutcome,
  PromptSource,
  QuestionOutcome,
  Slot,
  Wire,
  WireObject,
} from "../../../protocol/mod.ts";
import { slotName } from "../../../protocol/mod.ts";
import type { ProjectConfig } from "../../config/types.ts";
import { Refusal } from "../../subsystem.ts";
import { type ClaudeExit, ClaudeProcess, type JsonObject } from "../claude/mod.ts";
import { readWork } from "../work.ts";
import type { SeatInfo } from "../workspace.ts";
import { AskBook } from "./asks.ts";
import { readCallOutput } from "./call_output.ts";
import type { SeatEnv } from "./env.ts";
import { type Occupancy, planLaunch } from "./launch.ts";
import { processTree, type ProcTable } from "./procfs.ts";
import { capToolRecord } from "./records.ts";
import { type Derived, SeatState } from "./seat_state.ts";
import { FrameWindow } from "./window.ts";

export type Lifecycle = "Sleeping" | "Spawning" | "Idle" | "Running" | "Attention" | "Failed";
type Phase = "sleeping" | "spawning" | "live" | "releasing" | "failed";

/** How long a fresh CLI has to answer `initialize` (startup is CPU-bound: ~4 s each with four
 * starting at once on two cores, harness report §10). */
export const INIT_TIMEOUT_MS = 60_000;
/** catalogue 3.6 probe bounds: one context reading a minute per seat, none at 500k tokens. */
const PROBE_MIN_INTERVAL_MS = 60_000;
const PROBE_TOKEN_GATE = 500_000;

export interface StartOptions {
  occupancy: Occupancy;
  cwd: string;
  launch?: LaunchSettings;
}

/** A failed seat's reason: the sentence, and the exit it came from when there was one. */
interface Failure {
  message: string;
  code: number | null;
  signal: string | null;
  stderr_tail: string;
}

/**
 * One seat: `<org>/<project>/<label>` and the `claude` process occupying it, if any. It turns
 * every CLI frame into `chat_appended` plus what the frame implies (seat_state.ts), parks the
 * CLI's asks (asks.ts), keeps its numbered frames (window.ts), and answers the seat's commands.
 * A process that ends unasked - a failed start, a crash, a kill - leaves the seat Failed with the
 * exit and the stderr tail, announced as `connection_failed`; nothing else is touched.
 */
export class Seat implements SeatInfo {
  #phase: Phase = "sleeping";
  #proc: ClaudeProcess | null = null;
  #gen = 0;
  #state = new SeatState();
  #window = new FrameWindow();
  #asks: AskBook;
  #failure: Failure | null = null;
  #startError: string | null = null;
  #lastActivity: number | null = null;
  #tmpBase = "/tmp";
  #lastProbe = -Infinity;
  #probing = false;
  #mcpAsked = false;
  /** Resolves once the occupant's last frame was handled and its exit told. */
  #settled: Promise<void> = Promise.resolve();

  constructor(
    readonly slot: Slot,
    readonly project: ProjectConfig,
    public cwd: string,
    private readonly env: SeatEnv,
  ) {
    this.#asks = new AskBook(slot, {
      emit: (name, fields) => this.#emit(name, fields),
      nextSeq: () => env.nextAskSeq(),
    });
  }

  get name(): string {
    return slotName(this.slot);
  }

  get lifecycle(): Lifecycle {
    switch (this.#phase) {
      case "sleeping":
        return "Sleeping";
      case "spawning":
        return "Spawning";
      case "failed":
        return "Failed";
      default:
        if (this.#asks.size > 0) return "Attention";
        return this.#state.turnInFlight ? "Running" : "Idle";
    }
  }

  /** Whether a process occupies the seat (spawning or live). */
  get occupied(): boolean {
    return this.#proc !== null && (this.#phase === "spawning" || this.#phase === "live");
  }

  /** The occupant's held frames, for a pager (`more`, `seat_range`) to read. */
  get window(): FrameWindow {
    return this.#window;
  }

  get pid(): number | null {
    return this.#proc?.pid ?? null;
  }

  sessionId(): string | null {
    return this.occupied ? this.#state.sessionId : null;
  }

  /**
   * Starts an occupant: a fresh session under a minted id or a resumed one. Emits `spawning`,
   * then `connected` (or `session_replaced` when a live occupant was replaced) once the CLI
   * answers `initialize`. Never throws: a launch that cannot happen fails the seat.
   */
  async start(opts: StartOptions): Promise<void> {
    const replacing = this.#phase === "live";
    const old = this.#proc;
    const gen = ++this.#gen;
    this.#proc = null;
    this.#phase = "spawning";
    this.#asks.clear("the session was replaced");
    if (old) await this.#retire(old);
    if (gen !== this.#gen) return;
    this.cwd = opts.cwd;
    this.#failure = null;
    this.#startError = null;
    this.#state = new SeatState();
    this.#window = new FrameWindow("resume" in opts.occupancy);
    this.#lastProbe = -Infinity;
    this.#mcpAsked = false;
    const config = this.env.config();
    const account = config.orgs.find((o) => o.name === this.project.org)?.accounts[0] ?? null;
    this.#emit("spawning", {
      project_name: this.project.name,
      cwd: this.cwd,
      display_name: account ?? this.project.name,
    });
    let proc: ClaudeProcess;
    let model: string | null;
    try {
      const plan = planLaunch({
        config,
        project: this.project,
        cwd: this.cwd,
        occupancy: opts.occupancy,
        launch: opts.launch,
      });
      for (const warning of plan.warnings) {
        this.env.log.warn("seat_env_refused", { seat: this.name, warning });
      }
      proc = ClaudeProcess.spawn({
        bin: plan.bin,
        args: plan.args,
        cwd: plan.cwd,
        env: plan.env,
        canUseTool: (req, signal) => this.#asks.park(req, signal),
        onProblem: (what) => this.env.log.warn("seat_cli_problem", { seat: this.name, what }),
      });
      model = plan.model;
      this.#tmpBase = plan.tmpBase;
      this.#state.effort = plan.effort;
      this.#state.permissionMode = plan.permissionMode;
    } catch (err) {
      this.#fail(`claude could not be started for ${this.name}: ${(err as Error).message}`, null);
      return;
    }
    this.#proc = proc;
    this.#state.sessionId = "resume" in opts.occupancy
      ? opts.occupancy.resume
      : opts.occupancy.sessionId;
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
      // An exit rejects the request too: then the exit itself is the reason, told by #exited.
      if (gen !== this.#gen || /claude exited/.test((err as Error).message)) return;
      this.#startError = `it did not answer initialize: ${(err as Error).message}`;
      proc.kill("SIGKILL"); // the exit then fails the seat, carrying this reason
      return;
    }
    if (gen !== this.#gen || this.#proc !== proc) return;
    const derived = this.#state.initialize(ready, model);
    this.#phase = "live";
    this.#emit(replacing ? "session_replaced" : "connected", {
      session_id: this.#state.sessionId,
      cwd: this.cwd,
      current_model: this.#state.model,
      available_models: this.#state.availableModels,
      mode: { permission_mode: this.#state.permissionMode },
      history: [],
      compaction_count: 0,
    });
    this.#emitAll(derived);
    // A read that came while the CLI was starting could not ask; it is asked for now.
    if (this.env.watchers.holding(this.slot) > 0) this.#askForReads();
  }

  /** close_session: `releasing`, then the process is closed; a lead goes back to Sleeping. */
  async release(): Promise<void> {
    const proc = this.#live("close_session");
    this.#phase = "releasing";
    this.#emit("releasing", {});
    if (this.#state.turnInFlight) proc.interrupt().catch(() => {});
    await proc.close();
    await this.#settled;
  }

  /** Shutdown: stdin EOF, 5 s, SIGTERM, 2 s, SIGKILL (catalogue 6.2); resolves once reaped. */
  async shutdown(): Promise<void> {
    const proc = this.#proc;
    if (proc) {
      this.#phase = "releasing";
      await proc.close();
    }
    await this.#settled;
  }

  // ---- commands (catalogue 1.2) --------------------------------------------------------

  /** prompt / prompt_under: writes the user line and forges the user turn the CLI never echoes. */
  prompt(
    command: string,
    text: string,
    attachments: { data: string; mime_type: string }[],
    uuid: string,
    source: PromptSource,
  ): void {
    const proc = this.#live(command);
    const content: string | JsonObject[] = attachments.length === 0 ? text : [
      { type: "text", text },
      ...attachments.map((a) => ({
        type: "image",
        source: { type: "base64", media_type: a.mime_type, data: a.data },
      })),
    ];
    try {
      proc.sendUserMessage(content, uuid);
    } catch (err) {
      throw this.#refuse(command, (err as Error).message);
    }
    // spec: a forged turn carries the prompt's own uuid and its source.
    this.#chat({
      type: "user",
      message: { role: "user", content: content as Wire },
      parent_tool_use_id: null,
      session_id: this.#state.sessionId,
      uuid,
      source,
    });
    this.#state.queue.push({ uuid, source, text });
    this.#emit("prompt_queued", { uuid, source, text });
  }

  /** cancel: the control `interrupt`; a failure is told as a notice. */
  cancel(): void {
    this.#live("cancel").interrupt().catch((err) => this.#notice(`cancel failed: ${err.message}`));
  }

  cancelQueued(uuid: string): void {
    const proc = this.#live("cancel_queued_prompt");
    proc.request("cancel_async_message", { message_uuid: uuid }).then((res) => {
      const cancelled = res.cancelled === true;
      if (cancelled) this.#state.queue = this.#state.queue.filter((q) => q.uuid !== uuid);
      this.#emit("prompt_cancel_resolved", { uuid, cancelled });
    }).catch((err) => {
      this.env.log.warn("seat_cancel_queued_failed", { seat: this.name, uuid, error: err });
      this.#emit("prompt_cancel_resolved", { uuid, cancelled: false });
    });
  }

  setMode(mode: string): void {
    this.#live("set_mode").request("set_permission_mode", { mode }).then((res) => {
      this.#state.permissionMode = typeof res.mode === "string" ? res.mode : mode;
    }).catch((err) => this.#emit("set_mode_failed", { mode, message: err.message }));
  }

  setModel(model: string): void {
    this.#live("set_model").setModel(model).then((res) => {
      this.#state.model = typeof res.model === "string" ? res.model : model;
    }).catch((err) => this.#emit("set_model_failed", { model, message: err.message }));
  }

  respondPermission(toolId: string, outcome: PermissionOutcome, answering: boolean): void {
    this.#live("respond_permission");
    this.#mustAnswer("respond_permission", answering);
    this.#asks.answerPermission(toolId, outcome);
  }

  respondQuestion(toolId: string, outcome: QuestionOutcome, answering: boolean): void {
    this.#live("respond_question");
    this.#mustAnswer("respond_question", answering);
    this.#asks.answerQuestion(toolId, outcome);
  }

  /** read_call_output: the call's output (call_output.ts); answered to the asker alone. */
  readCallOutput(callId: string): Promise<WireObject> {
    this.#live("read_call_output");
    const found = this.#state.tasks.lookup(callId);
    return readCallOutput({
      tmpBase: this.#tmpBase,
      uid: Deno.uid() ?? 0,
      sessionId: this.#state.sessionId,
      taskId: found.taskId,
      outputFile: found.outputFile,
    });
  }

  /** One walk of the process tree under the CLI; `processes_changed` when it moved. */
  walk(table: ProcTable): void {
    const proc = this.#proc;
    if (!proc || !this.occupied) return;
    const snapshot = processTree(table, proc.pid);
    if (JSON.stringify(snapshot) === JSON.stringify(this.#state.processes)) return;
    this.#state.processes = snapshot;
    this.#emit("processes_changed", { snapshot });
  }

  // ---- reads -----------------------------------------------------------------------------

  async homeRow(): Promise<Wire> {
    const front = this.#asks.list()[0];
    const home = Deno.env.get("HOME");
    return {
      slot: this.slot,
      label: this.slot.label,
      lifecycle: this.lifecycle,
      has_background_work: this.#state.tasks.hasBackgroundWork,
      pending: front?.kind ?? null,
      pending_depth: front ? this.#asks.size - 1 : 0,
      pending_seq: front?.seq ?? null,
      last_activity: this.#lastActivity === null ? null : systemTime(this.#lastActivity),
      reason: this.#failure?.message ?? null,
      tree: this.cwd === this.project.path
        ? null
        : home && this.cwd.startsWith(`${home}/`)
        ? `~${this.cwd.slice(home.length)}`
        : this.cwd,
      work: await readWork(this.cwd),
    };
  }

  /** The seat's own session fields; a read with no context reading or MCP snapshot asks. */
  sessionFields(): Record<string, Wire> {
    const config = this.env.config();
    if (this.#phase === "live") this.#askForReads();
    const asks = this.#asks.list() as unknown as Wire[];
    const dictate = config.areas.dictate ?? {};
    return {
      // spec: header.session_id is null when no occupant can be named (a failed connection).
      header: {
        ...this.#state.header(this.env.workspace.stream.nextSeq(this.slot)),
        session_id: this.sessionId(),
      },
      conversation: this.#window.newestTurns(
        undefined,
        config.server.first_frame_cap_kb * 1024,
      ),
      state: {
        slot: this.slot,
        scan_cwd: this.cwd,
        queue: this.#state.queue as unknown as Wire[],
        voice_listeners: 0,
      },
      composer: {
        machine: this.#state.compacting ? "compacting" : null,
        bind: typeof dictate.bind === "string" ? dictate.bind : "right_cmd",
        mode: typeof dictate.mode === "string" ? dictate.mode : "auto",
        notice: null,
      },
      pending_asks: asks,
      pending_ask: asks[0] ?? null,
      slash_commands: this.#state.slashCommands,
      subagents: this.#state.subagents,
      background_tasks: this.#state.tasks.wire(),
      mcp: this.#state.mcp,
      processes: this.#state.processes,
      failure: this.#failure as unknown as Wire,
    };
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
    this.#lastActivity = Date.now();
    this.#chat(capToolRecord(frame, this.env.config().server.tool_record_cap_kb * 1024));
    this.#emitAll(this.#state.apply(frame));
    if (frame.type === "result") {
      // spec: home > unseen; session > header (context asked again where a page shows it).
      if (this.env.watchers.showing(this.slot) === 0) this.env.workspace.markUnseen(this.slot);
      else this.#probe(false);
    }
    if (frame.type === "system" && frame.subtype === "compact_boundary") this.#probe(true);
  }

  #exited(proc: ClaudeProcess, gen: number, exit: ClaudeExit): void {
    this.env.pids.remove(proc.pid);
    this.env.log.info("seat_exited", {
      seat: this.name,
      pid: proc.pid,
      code: exit.code,
      signal: exit.signal,
    });
    if (gen !== this.#gen || this.#proc !== proc) return;
    this.#proc = null;
    this.#asks.clear("the CLI process ended");
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
    this.env.log.warn("seat_failed", { seat: this.name, message });
    this.#emit("connection_failed", { message, fatal: true });
  }

  async #retire(proc: ClaudeProcess): Promise<void> {
    proc.interrupt().catch(() => {});
    await proc.close();
  }

  #probe(force: boolean): void {
    const proc = this.#proc;
    if (!proc || this.#phase !== "live" || this.#probing) return;
    const now = performance.now();
    if (!force && now - this.#lastProbe < PROBE_MIN_INTERVAL_MS) return;
    if (this.#state.contextTokens >= PROBE_TOKEN_GATE) return;
    this.#probing = true;
    this.#lastProbe = now;
    // 'summary' answers from the last usage and local estimates, without count_tokens calls.
    proc.request("get_context_usage", { detail: "summary" }, 15_000).then((res) => {
      if (proc !== this.#proc) return;
      const percent = typeof res.percentage === "number" ? Math.round(res.percentage) : null;
      const max = typeof res.maxTokens === "number" ? res.maxTokens : null;
      this.#state.context = { percent, max_tokens: max };
      this.#state.contextTokens = typeof res.totalTokens === "number" ? res.totalTokens : 0;
      this.#emit("context_usage_snapshot", { percentage: percent, max_tokens: max });
    }).catch((err) =>
      this.env.log.debug("seat_context_probe_failed", { seat: this.name, error: err })
    )
      .finally(() => this.#probing = false);
  }

  /** spec: session > header, mcp: a read of a seat with no context reading or MCP snapshot
   * asks the CLI for them (once each per occupant); the answers land as updates. */
  #askForReads(): void {
    if (this.#state.context.percent === null && !Number.isFinite(this.#lastProbe)) {
      this.#probe(true);
    }
    if (!this.#mcpAsked) this.#readMcp();
  }

  #readMcp(): void {
    const proc = this.#proc!;
    this.#mcpAsked = true;
    proc.mcpStatus().then((res) => {
      const servers = Array.isArray(res.mcpServers) ? res.mcpServers as Wire[] : [];
      this.#state.mcp = { servers, error: null };
      this.#emit("mcp_snapshot", { servers, error: null });
    }).catch((err) => {
      this.#state.mcp = { servers: [], error: err.message };
      this.#emit("mcp_snapshot", { servers: [], error: err.message });
    });
  }

  // ---- emitting --------------------------------------------------------------------------

  /** Emits one keyed update, numbered on the seat's counter, and keeps it in the window. */
  #emit(name: string, fields: Record<string, Wire>): void {
    const update = { name, fields: { key: this.slot, ...fields } };
    const numbered = this.env.workspace.emit(update);
    if (numbered.seq !== null) this.#window.push(numbered.seq, update);
  }

  #emitAll(derived: Derived[]): void {
    for (const d of derived) this.#emit(d.name, d.fields);
  }

  #chat(msg: CliFrame): void {
    this.#emit("chat_appended", { msg });
  }

  #notice(text: string): void {
    this.#emit("notice", { severity: "error", text });
  }

  #live(command: string): ClaudeProcess {
    if (this.#proc && this.occupied) return this.#proc;
    const why = this.#phase === "failed"
      ? `it failed: ${this.#failure?.message ?? "unknown"}`
      : this.#phase === "releasing"
      ? "it is being released"
      : "nothing occupies it";
    throw this.#refuse(command, `the seat has no session (${why})`);
  }

  #mustAnswer(command: string, answering: boolean): void {
    if (answering) return;
    // spec: subscribe > answering: the core asks only the connections that declared it.
    throw this.#refuse(
      command,
      "this connection did not declare answering (subscribe with answering: true); a read-only client reads asks and answers none",
    );
  }

  #refuse(command: string, why: string): Refusal {
    return new Refusal("dispatch", `${command}: ${this.name}: ${why}`, this.slot);
  }
}

/** serde's SystemTime shape (catalogue 0: `Time`). */
function systemTime(ms: number): Wire {
  return { secs_since_epoch: Math.floor(ms / 1000), nanos_since_epoch: (ms % 1000) * 1_000_000 };
}
