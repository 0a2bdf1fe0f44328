import type {
  AgentRow,
  PermissionMode,
  PermissionOutcome,
  PromptSource,
  QuestionOutcome,
  Wire,
  WireObject,
  WireTime,
} from "../../../protocol/mod.ts";
import type { JsonObject } from "../claude/mod.ts";
import { readWork } from "../work.ts";
import type { SeatInfo } from "../workspace.ts";
import { readCallOutput } from "./call_output.ts";
import { processTree, type ProcTable, treeShape } from "./procfs.ts";
import { Refusal } from "../../subsystem.ts";
import { ownWords } from "../../words.ts";
import type { PageBody, RangeFrame } from "./conversation.ts";
import type { SessionRecord } from "./session_book.ts";
import { type Lifecycle, SeatCore, type StartOptions } from "./seat_core.ts";
import { SERVER_NAME } from "../mcp/seat_server.ts";

export { INIT_TIMEOUT_MS, type Lifecycle, type StartOptions } from "./seat_core.ts";

/**
 * One seat, `<org>/<project>/<label>`, as the rest of the server sees it: the seat commands
 * (catalogue 1.2) on top of its life with the CLI (seat_core.ts), its home `agents` row and its
 * session fields (spec: What a subject carries > home, session).
 */
export class Seat extends SeatCore implements SeatInfo {
  /** The newest start: resolves once its CLI answered `initialize` (or the start failed). */
  started: Promise<void> = Promise.resolve();

  override start(opts: StartOptions): Promise<void> {
    return (this.started = super.start(opts));
  }

  get lifecycle(): Lifecycle {
    switch (this.phase) {
      case "sleeping":
        return "Sleeping";
      case "spawning":
        return "Spawning";
      case "failed":
        return "Failed";
      default:
        if (this.asks.size > 0 || this.env.held.list(this.slot).length > 0) return "Attention";
        return this.state.turnInFlight ? "Running" : "Idle";
    }
  }

  /** Whether a start is under way (a delivery waits for it rather than writing too early). */
  get spawning(): boolean {
    return this.phase === "spawning";
  }

  // ---- commands (catalogue 1.2) --------------------------------------------------------

  /** Why the seat failed, while it is Failed. */
  get failureMessage(): string | null {
    return this.failure?.message ?? null;
  }

  /** prompt / prompt_under: writes the user line and forges the user turn the CLI never echoes. */
  prompt(
    command: string,
    text: string,
    attachments: { data: string; mime_type: string }[],
    uuid: string,
    source: PromptSource,
  ): void {
    const proc = this.live(command);
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
      throw this.refuse(
        command,
        ownWords(err, {
          log: this.env.log,
          event: "seat_prompt_unsent",
          fallback: "the prompt could not be written to the CLI; the log has the cause",
          fields: { seat: this.name },
        }),
      );
    }
    // spec: a forged turn carries the prompt's own uuid and its source.
    this.chat({
      type: "user",
      message: { role: "user", content: content as Wire },
      parent_tool_use_id: null,
      session_id: this.state.sessionId,
      uuid,
      source,
    });
    // catalogue 2.3 #65: a prompt sent while a turn runs waits in the CLI's queue; said first.
    if (this.state.turnInFlight) this.emit("prompt_queued_while_busy", {});
    this.state.queue.push({ uuid, source, text });
    this.emit("prompt_queued", { uuid, source, text });
  }

  /** replay_conversation: the seat's newest page again, as one `history_replayed` (catalogue
   * 2.3 #3): the frames the snapshot's conversation carries, flattened oldest first. Refused
   * naming the seat when it holds no conversation. */
  async replay(): Promise<void> {
    if (!this.history.conversation) {
      throw this.refuse(
        "replay_conversation",
        "the seat has no session and knows no earlier one to replay",
      );
    }
    const page = await this.history.snapshot() as {
      turns: { messages: Wire[] }[];
      compaction_count: number;
    };
    this.emit("history_replayed", {
      history: page.turns.flatMap((t) => t.messages),
      compaction_count: page.compaction_count,
    });
  }

  /** cancel: the control `interrupt`; a failure is told as a notice. */
  cancel(): void {
    this.live("cancel").interrupt().catch((err) => this.notice(`cancel failed: ${err.message}`));
  }

  cancelQueued(uuid: string): void {
    const proc = this.live("cancel_queued_prompt");
    proc.request("cancel_async_message", { message_uuid: uuid }).then((res) => {
      const cancelled = res.cancelled === true;
      if (cancelled) this.state.queue = this.state.queue.filter((q) => q.uuid !== uuid);
      this.emit("prompt_cancel_resolved", { uuid, cancelled });
    }).catch((err) => {
      this.env.log.warn("seat_cancel_queued_failed", { seat: this.name, uuid, error: err });
      this.emit("prompt_cancel_resolved", { uuid, cancelled: false });
    });
  }

  setMode(mode: PermissionMode): void {
    this.live("set_mode").request("set_permission_mode", { mode }).then((res) => {
      this.state.permissionMode = typeof res.mode === "string" ? res.mode : mode;
    }).catch((err) => this.emit("set_mode_failed", { mode, message: err.message }));
  }

  setModel(model: string): void {
    this.live("set_model").setModel(model).then((res) => {
      this.state.model = typeof res.model === "string" ? res.model : model;
      this.state.requestedModel = model;
      this.state.modelAuthoritative = typeof res.model === "string";
    }).catch((err) => this.emit("set_model_failed", { model, message: err.message }));
  }

  respondPermission(toolId: string, outcome: PermissionOutcome, answering: boolean): void {
    this.live("respond_permission");
    this.#mustAnswer("respond_permission", answering);
    this.asks.answerPermission(toolId, outcome);
  }

  respondQuestion(toolId: string, outcome: QuestionOutcome, answering: boolean): void {
    this.live("respond_question");
    this.#mustAnswer("respond_question", answering);
    this.asks.answerQuestion(toolId, outcome);
  }

  /**
   * reconnect_mcp_server / toggle_mcp_server: the control subtypes `mcp_reconnect {serverName}`
   * and `mcp_toggle {serverName, enabled}` (catalogue 6.4). Success is read back as a fresh
   * `mcp_snapshot`; a failure is `mcp_operation_error {error: {server_name, operation, message}}`
   * (the original's McpOperationError).
   */
  mcpOperation(operation: "reconnect" | "toggle", serverName: string, enabled?: boolean): void {
    const command = operation === "reconnect" ? "reconnect_mcp_server" : "toggle_mcp_server";
    const proc = this.live(command);
    if (operation === "reconnect" && serverName === SERVER_NAME && this.env.tools) {
      // forge's own server lives in this process: the CLI refuses to reconnect an sdk server
      // ("handled in print.ts"), so forge has it list the tools again and reads the status.
      this.env.tools.changed(this.slot);
      this.occupantReads?.readMcp();
      return;
    }
    const asked = operation === "reconnect"
      ? proc.request("mcp_reconnect", { serverName })
      : proc.request("mcp_toggle", { serverName, enabled: enabled === true });
    asked.then(() => this.occupantReads?.readMcp()).catch((err) =>
      this.emit("mcp_operation_error", {
        error: { server_name: serverName, operation, message: err.message },
      })
    );
  }

  /** read_call_output: the call's output (call_output.ts); answered to the asker alone. */
  readCallOutput(callId: string): Promise<WireObject> {
    this.live("read_call_output");
    const found = this.state.tasks.lookup(callId);
    return readCallOutput({
      tmpBase: this.tmpBase,
      uid: Deno.uid() ?? 0,
      sessionId: this.state.sessionId,
      taskId: found.taskId,
      outputFile: found.outputFile,
    });
  }

  /** One walk of the process tree under the CLI; `processes_changed` when it moved. */
  walk(table: ProcTable): void {
    const proc = this.proc;
    if (!proc || !this.occupied) return;
    const snapshot = processTree(table, proc.pid);
    // A walk is news when the tree moved; its clock and memory ride along, refreshed then.
    if (treeShape(snapshot) === treeShape(this.state.processes)) return;
    this.state.processes = snapshot;
    this.emit("processes_changed", { snapshot });
  }

  // ---- reads -----------------------------------------------------------------------------

  /** SeatInfo.toolFamilies: the families a worker was given. */
  toolFamilies(): readonly string[] | null {
    return this.families;
  }

  /** spec: session > pending_asks: the held kinds lead (held.ts), then the CLI's own asks
   * (permission, question) in arrival order. */
  pendingAsks(): { kind: string; seq: number; request: WireObject }[] {
    return [...this.env.held.list(this.slot), ...this.asks.list()];
  }

  async homeRow(): Promise<AgentRow> {
    const asks = this.pendingAsks();
    const front = asks[0];
    const home = Deno.env.get("HOME");
    return {
      slot: this.slot,
      label: this.slot.label,
      // catalogue 7.1 lifecycle `AuthRequired`: a live seat whose upstream refused its credential.
      lifecycle: this.occupied && this.env.workspace.gateway?.authRequired(this.slot)
        ? "AuthRequired"
        : this.lifecycle,
      has_background_work: this.state.tasks.hasBackgroundWork,
      pending: front?.kind ?? null,
      pending_depth: front ? asks.length - 1 : 0,
      pending_seq: front?.seq ?? null,
      last_activity: this.lastActivity === null ? null : systemTime(this.lastActivity),
      reason: this.failure?.message ?? null,
      failed_turn: this.state.failedTurnAt === null ? null : systemTime(this.state.failedTurnAt),
      tree: this.cwd === this.project.path
        ? null
        : home && this.cwd.startsWith(`${home}/`)
        ? `~${this.cwd.slice(home.length)}`
        : this.cwd,
      work: await readWork(this.cwd, { live: this.occupied }),
    };
  }

  /** The seat's own session fields; a read with no context reading or MCP snapshot asks. The
   * conversation is the current (or last) occupant's newest page (history.ts). */
  async sessionFields(): Promise<Record<string, Wire>> {
    const config = this.env.config();
    // spec: session > header, mcp: the live occupant is asked for the readings it lacks.
    if (this.phase === "live") this.occupantReads?.askForReads();
    const asks = this.pendingAsks();
    const dictate = config.areas.dictate ?? {};
    return {
      // spec: header.session_id is null when no occupant can be named (a failed connection).
      header: {
        ...this.state.header(this.env.workspace.stream.nextSeq(this.slot)),
        session_id: this.sessionId(),
      },
      conversation: await this.history.snapshot(),
      state: {
        slot: this.slot,
        scan_cwd: this.cwd,
        queue: this.state.queue,
        voice_listeners: 0,
      },
      composer: {
        machine: this.env.held.handingOff(this.slot)
          ? "handoff"
          : this.state.compacting
          ? "compacting"
          : this.state.turnInFlight && this.state.machineTurn
          ? "machine"
          : null,
        compacting: this.state.compacting,
        sign_in: null,
        bind: typeof dictate.bind === "string" ? dictate.bind : "right_cmd",
        mode: typeof dictate.mode === "string" ? dictate.mode : "auto",
        notice: null,
      },
      pending_asks: asks,
      pending_ask: asks[0] ?? null,
      has_dispatches: this.state.cards.hasDispatches,
      slash_commands: this.state.slashCommands,
      subagents: this.state.subagents,
      subagent_instances: this.state.cards.wire(),
      background_tasks: this.state.tasks.wire(),
      monitors: this.state.tasks.monitors(),
      mcp: this.state.mcp,
      processes: this.state.processes,
      failure: this.failure,
    };
  }

  // ---- the conversation (spec: more, seat_range) ------------------------------------------

  /** The session a previous run of the server left on this seat (the session book): its
   * conversation stays pageable with no process (seeded on the first read). */
  remember(rec: SessionRecord): void {
    this.history.remember(rec);
  }

  /** `more`: a page of the seat's conversation (seats/conversation.ts); refused naming `more`
   * when the seat has none to page or the cursor is not one it can place. */
  more(before: string | null, turns: number): Promise<PageBody> {
    return this.history.more(before, turns);
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
    // spec (catalogue 3.4): a held batch goes out before any answer.
    this.env.workspace.stream.flush(this.slot);
    const next = this.env.workspace.stream.nextSeq(this.slot);
    if (from > to) throw refuse(`from ${from} is after to ${to}`);
    if (to >= next) throw refuse(`to ${to} is past the seat's last number ${next - 1}`);
    return await this.history.range(from, to);
  }

  #mustAnswer(command: string, answering: boolean): void {
    if (answering) return;
    // spec: subscribe > answering: the core asks only the connections that declared it.
    throw this.refuse(
      command,
      "this connection did not declare answering (subscribe with answering: true); a read-only client reads asks and answers none",
    );
  }
}

/** serde's SystemTime shape (catalogue 0: `Time`). */
function systemTime(ms: number): WireTime {
  return { secs_since_epoch: Math.floor(ms / 1000), nanos_since_epoch: (ms % 1000) * 1_000_000 };
}
