import type { BackgroundTask, CliFrame } from "../../../protocol/mod.ts";

/** One live task, as `background_tasks` carries it (protocol/session.ts). */
export type TaskRow = BackgroundTask;

/**
 * One watch the session has running: a background task the CLI's Monitor tool began. spec:
 * session > monitors. `command` is the shell command whose lines are the events, `url` the
 * WebSocket whose frames are (one or the other); `timeout_ms` the deadline the call asked for.
 */
export type MonitorRow = {
  task_id: string;
  description: string;
  command: string | null;
  url: string | null;
  timeout_ms: number | null;
  tool_use_id: string;
};

/** What a Monitor call asked for, by its tool_use id, until its task starts. */
type MonitorCall = Omit<MonitorRow, "task_id" | "tool_use_id">;

const TERMINAL = new Set(["completed", "failed", "killed", "stopped", "cancelled", "error"]);
/** How many tool calls (their command) and ended tasks (their output file) are remembered. */
const REMEMBERED = 512;

/**
 * A seat's task registry, fed by the CLI's own frames: `task_started` adds a row,
 * `task_notification` or a terminal `task_updated` ends it, a foreground call also ends with the
 * turn it ran in, and the CLI's `background_tasks_changed` list drops backgrounded rows it no
 * longer carries. Ended tasks keep their `output_file` for `read_call_output`.
 */
export class TaskBook {
  #rows = new Map<string, TaskRow>();
  #commands = new Map<string, string>();
  #outputs = new Map<string, string>();
  #monitorCalls = new Map<string, MonitorCall>();

  rows(): TaskRow[] {
    return [...this.#rows.values()];
  }

  wire(): TaskRow[] {
    return this.rows();
  }

  /** The live tasks a Monitor call began. spec: session > monitors. */
  monitors(): MonitorRow[] {
    return this.rows().flatMap((r) => {
      const call = r.tool_use_id ? this.#monitorCalls.get(r.tool_use_id) : undefined;
      return call ? [{ task_id: r.task_id, ...call, tool_use_id: r.tool_use_id! }] : [];
    });
  }

  get hasBackgroundWork(): boolean {
    return this.#rows.size > 0;
  }

  /** Feeds one frame; true when the rows changed. */
  apply(frame: CliFrame): boolean {
    if (frame.type === "assistant") {
      this.#noteCalls(frame);
      return false;
    }
    if (frame.type !== "system") return false;
    const taskId = typeof frame.task_id === "string" ? frame.task_id : null;
    switch (frame.subtype) {
      case "task_started": {
        if (!taskId) return false;
        const toolUseId = typeof frame.tool_use_id === "string" ? frame.tool_use_id : null;
        this.#rows.set(taskId, {
          task_id: taskId,
          task_type: String(frame.task_type ?? "unknown"),
          description: String(frame.description ?? ""),
          is_backgrounded: frame.is_backgrounded === true,
          command: toolUseId ? this.#commands.get(toolUseId) ?? null : null,
          tool_use_id: toolUseId,
        });
        return true;
      }
      case "task_updated": {
        const patch = frame.patch as { status?: unknown } | undefined;
        if (!taskId || !TERMINAL.has(String(patch?.status))) return false;
        return this.#rows.delete(taskId);
      }
      case "task_notification": {
        if (!taskId) return false;
        if (typeof frame.output_file === "string") {
          this.#remember(this.#outputs, taskId, frame.output_file);
          if (typeof frame.tool_use_id === "string") {
            this.#remember(this.#outputs, frame.tool_use_id, frame.output_file);
          }
        }
        return this.#rows.delete(taskId);
      }
      case "background_tasks_changed": {
        if (!Array.isArray(frame.tasks)) return false;
        const listed = new Set(
          frame.tasks.map((t) => (t as { task_id?: unknown } | null)?.task_id),
        );
        let changed = false;
        for (const row of this.#rows.values()) {
          if (row.is_backgrounded && !listed.has(row.task_id)) {
            changed = this.#rows.delete(row.task_id) || changed;
          }
        }
        return changed;
      }
      default:
        return false;
    }
  }

  /** The turn ended: the foreground calls it announced end with it. True when rows changed. */
  endTurn(): boolean {
    let changed = false;
    for (const row of this.#rows.values()) {
      if (!row.is_backgrounded) changed = this.#rows.delete(row.task_id) || changed;
    }
    return changed;
  }

  /** The CLI ended: no task of its is live any more. True when rows changed. */
  endAll(): boolean {
    const changed = this.#rows.size > 0;
    this.#rows.clear();
    return changed;
  }

  /** The task a call began (by its tool_use id, or the task id itself), live or ended. */
  lookup(callId: string): { taskId: string | null; outputFile: string | null } {
    const live = this.#rows.get(callId) ??
      [...this.#rows.values()].find((r) => r.tool_use_id === callId);
    const outputFile = this.#outputs.get(callId) ?? null;
    return { taskId: live?.task_id ?? null, outputFile };
  }

  #noteCalls(frame: CliFrame): void {
    const content = (frame.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      const b = block as {
        type?: unknown;
        id?: unknown;
        name?: unknown;
        input?: { command?: unknown; description?: unknown; timeout_ms?: unknown; ws?: unknown };
      };
      if (b?.type !== "tool_use" || typeof b.id !== "string") continue;
      const input = b.input ?? {};
      if (typeof input.command === "string") this.#remember(this.#commands, b.id, input.command);
      if (b.name === "Monitor") {
        const url = (input.ws as { url?: unknown } | undefined)?.url;
        this.#monitorCalls.set(b.id, {
          description: typeof input.description === "string" ? input.description : "",
          command: typeof input.command === "string" ? input.command : null,
          url: typeof url === "string" ? url : null,
          timeout_ms: typeof input.timeout_ms === "number" ? input.timeout_ms : null,
        });
        if (this.#monitorCalls.size > REMEMBERED) {
          this.#monitorCalls.delete(this.#monitorCalls.keys().next().value!);
        }
      }
    }
  }

  #remember(map: Map<string, string>, key: string, value: string): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
  }
}
