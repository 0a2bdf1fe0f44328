import type {
  CallOutput,
  CliFrame,
  KeyedUpdateName,
  PermissionMode,
  PermissionOutcome,
  PromptSource,
  QuestionOutcome,
  SeatFields,
  Slot,
  Wire,
} from "../../../protocol/mod.ts";
import { type ClaudeProcess, ControlError, type JsonObject } from "../claude/mod.ts";
import type { Refusal } from "../../subsystem.ts";
import { ownWords } from "../../words.ts";
import { SERVER_NAME } from "../mcp/seat_server.ts";
import type { AskBook } from "./asks.ts";
import { readCallOutput } from "./call_output.ts";
import type { SeatDriver } from "./driver.ts";
import type { SeatEnv } from "./env.ts";
import type { SeatHistory } from "./history.ts";
import { unknownModelWhy } from "./model_wire.ts";
import { processTree, type ProcTable, treeShape } from "./procfs.ts";
import type { SeatEmitter } from "./seat_emit.ts";
import type { SeatState } from "./seat_state.ts";

/** The parts of a seat its commands use (seat.ts composes them). */
export interface CommandParts {
  slot: Slot;
  /** The seat's name, `<org>/<project>/<label>`. */
  name: string;
  env: SeatEnv;
  /** The CLI driver: the live process, or a refusal naming why there is none. */
  driver: SeatDriver;
  history: SeatHistory;
  asks: AskBook;
  emitter: SeatEmitter;
}

/**
 * The seat commands: each sends the live occupant its control request or user
 * line and tells what came of it as the seat's updates. A seat with no session refuses, naming
 * the command and why (SeatDriver.live).
 */
export class SeatCommands {
  readonly #p: CommandParts;

  constructor(parts: CommandParts) {
    this.#p = parts;
  }

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
      throw this.#refuse(
        command,
        ownWords(err, {
          log: this.#p.env.log,
          event: "seat_prompt_unsent",
          fallback: "the prompt could not be written to the CLI; the log has the cause",
          fields: { seat: this.#p.name },
        }),
      );
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
    // As the original tells it: a prompt sent while a turn runs waits in the CLI's queue; said
    // first.
    if (this.#state.turnInFlight) this.#emit("prompt_queued_while_busy", {});
    this.#state.queue.push({ uuid, source, text });
    this.#emit("prompt_queued", { uuid, source, text });
  }

  /** replay_conversation: the seat's newest page again, as one `history_replayed` (as the
   * original replays it): the frames the snapshot's conversation carries, flattened oldest
   * first. Refused naming the seat when it holds no conversation. */
  async replay(): Promise<void> {
    if (!this.#p.history.conversation) {
      throw this.#refuse(
        "replay_conversation",
        "the seat has no session and knows no earlier one to replay",
      );
    }
    const page = await this.#p.history.snapshot() as {
      turns: { messages: Wire[] }[];
      compaction_count: number;
    };
    this.#emit("history_replayed", {
      history: page.turns.flatMap((t) => t.messages),
      compaction_count: page.compaction_count,
    });
  }

  /** cancel: the control `interrupt`; a failure is told as a notice. */
  cancel(): void {
    this.#live("cancel").interrupt().catch((err) =>
      this.#notice(`cancel failed: ${this.#controlWhy(err, "seat_cancel_threw", {})}`)
    );
  }

  cancelQueued(uuid: string): void {
    const proc = this.#live("cancel_queued_prompt");
    proc.request("cancel_async_message", { message_uuid: uuid }).then((res) => {
      const cancelled = res.cancelled === true;
      if (cancelled) this.#state.queue = this.#state.queue.filter((q) => q.uuid !== uuid);
      this.#emit("prompt_cancel_resolved", { uuid, cancelled });
    }).catch((err) => {
      this.#p.env.log.warn("seat_cancel_queued_failed", { seat: this.#p.name, uuid, error: err });
      this.#emit("prompt_cancel_resolved", { uuid, cancelled: false });
    });
  }

  setMode(mode: PermissionMode): void {
    this.#live("set_mode").request("set_permission_mode", { mode }).then((res) => {
      this.#state.permissionMode = typeof res.mode === "string" ? res.mode : mode;
    }).catch((err) => {
      const why = this.#controlWhy(err, "seat_set_mode_threw", { mode });
      this.#emit("set_mode_failed", {
        mode,
        message: `switching to mode \`${mode}\` failed: ${why}`,
      });
    });
  }

  /** Why a control request failed: the CLI's own answer, or forge's words for anything else
   * (the cause goes to the log). The request's id stays out: it names nothing to a person. */
  #controlWhy(err: unknown, event: string, fields: Record<string, unknown>): string {
    if (err instanceof ControlError) return err.reason;
    return ownWords(err, {
      log: this.#p.env.log,
      event,
      fallback: "it failed inside forge; the log has the cause",
      fields: { seat: this.#p.name, ...fields },
    });
  }

  /**
   * set_model: the control `set_model`, for a name the seat's catalogue knows (model_wire.ts);
   * any other is refused as `set_model_failed` before the CLI hears it, and so is one the CLI
   * refuses, each naming the model. spec: set_model (failure -> set_model_failed).
   */
  setModel(model: string): void {
    const proc = this.#live("set_model");
    const failed = (message: string) => this.#emit("set_model_failed", { model, message });
    const unknown = unknownModelWhy(model, this.#state.availableModels, this.#state.servedModels);
    if (unknown) return failed(unknown);
    proc.setModel(model).then((res) => {
      this.#state.model = typeof res.model === "string" ? res.model : model;
      this.#state.requestedModel = model;
      this.#state.modelAuthoritative = typeof res.model === "string";
    }).catch((err) => {
      const why = this.#controlWhy(err, "seat_set_model_threw", { model });
      failed(`switching to model \`${model}\` failed: ${why}`);
    });
  }

  respondPermission(toolId: string, outcome: PermissionOutcome, answering: boolean): void {
    this.#live("respond_permission");
    this.#mustAnswer("respond_permission", answering);
    this.#p.asks.answerPermission(toolId, outcome);
  }

  respondQuestion(toolId: string, outcome: QuestionOutcome, answering: boolean): void {
    this.#live("respond_question");
    this.#mustAnswer("respond_question", answering);
    this.#p.asks.answerQuestion(toolId, outcome);
  }

  /**
   * reconnect_mcp_server / toggle_mcp_server: the control subtypes `mcp_reconnect {serverName}`
   * and `mcp_toggle {serverName, enabled}` (the CLI's control subtypes). Success is read back as a fresh
   * `mcp_snapshot`; a failure is `mcp_operation_error {error: {server_name, operation, message}}`
   * (the original's McpOperationError).
   */
  mcpOperation(operation: "reconnect" | "toggle", serverName: string, enabled?: boolean): void {
    const command = operation === "reconnect" ? "reconnect_mcp_server" : "toggle_mcp_server";
    const proc = this.#live(command);
    if (operation === "reconnect" && serverName === SERVER_NAME && this.#p.env.tools) {
      // forge's own server lives in this process: the CLI refuses to reconnect an sdk server
      // ("handled in print.ts"), so forge has it list the tools again and reads the status.
      this.#p.env.tools.changed(this.#p.slot);
      this.#p.driver.reads?.readMcp();
      return;
    }
    const asked = operation === "reconnect"
      ? proc.request("mcp_reconnect", { serverName })
      : proc.request("mcp_toggle", { serverName, enabled: enabled === true });
    // The person reads which operation on which server failed and why; the request id is
    // the CLI's bookkeeping, for the log alone.
    const doing = operation === "reconnect"
      ? `reconnecting MCP server "${serverName}"`
      : `turning MCP server "${serverName}" ${enabled === true ? "on" : "off"}`;
    asked.then(() => this.#p.driver.reads?.readMcp()).catch((err) => {
      const fields = { seat: this.#p.name, server: serverName, operation };
      const why = err instanceof ControlError ? err.reason : ownWords(err, {
        log: this.#p.env.log,
        event: "seat_mcp_operation_threw",
        fallback: "it failed inside forge; the log has the cause",
        fields,
      });
      this.#p.env.log.warn("seat_mcp_operation_failed", {
        ...fields,
        request_id: err instanceof ControlError ? err.requestId : null,
        why,
      });
      this.#emit("mcp_operation_error", {
        error: { server_name: serverName, operation, message: `${doing} failed: ${why}` },
      });
    });
  }

  /** read_call_output: the call's output (call_output.ts); answered to the asker alone. */
  readCallOutput(callId: string): Promise<CallOutput> {
    this.#live("read_call_output");
    const found = this.#state.tasks.lookup(callId);
    return readCallOutput({
      tmpBase: this.#p.driver.tmpBase,
      uid: Deno.uid() ?? 0,
      sessionId: this.#state.sessionId,
      taskId: found.taskId,
      outputFile: found.outputFile,
    });
  }

  /** One walk of the process tree under the CLI; `processes_changed` when it moved. */
  walk(table: ProcTable): void {
    const pid = this.#p.driver.pid;
    if (pid === null || !this.#p.driver.occupied) return;
    const snapshot = processTree(table, pid);
    // A walk is news when the tree moved; its clock and memory ride along, refreshed then.
    if (treeShape(snapshot) === treeShape(this.#state.processes)) return;
    this.#state.processes = snapshot;
    this.#emit("processes_changed", { snapshot });
  }

  // ---- the parts, as the commands use them ----------------------------------------------

  get #state(): SeatState {
    return this.#p.driver.state;
  }

  #live(command: string): ClaudeProcess {
    return this.#p.driver.live(command);
  }

  #refuse(command: string, why: string): Refusal {
    return this.#p.driver.refuse(command, why);
  }

  #emit<N extends KeyedUpdateName>(name: N, fields: SeatFields<N>): void {
    this.#p.emitter.emit(name, fields);
  }

  #chat(msg: CliFrame): void {
    this.#emit("chat_appended", { msg });
  }

  #notice(text: string): void {
    this.#emit("notice", { severity: "error", text });
  }

  #mustAnswer(command: string, answering: boolean): void {
    if (answering) return;
    // spec: subscribe > answering: the core asks only the connections that declared it.
    throw this.#refuse(
      command,
      "this connection did not declare answering (subscribe with answering: true); a read-only client reads asks and answers none",
    );
  }
}
