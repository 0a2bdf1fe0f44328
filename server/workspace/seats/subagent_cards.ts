import type { CliFrame, SubagentInstance } from "../../../protocol/mod.ts";

/** One subagent dispatch as the session's `subagent_instances` carries it (the original's
 * session snapshot); its shape is the schema's, so the card is the wire's own type and needs no
 * cast to cross. */
type Card = SubagentInstance;

/** How many of a card's newest calls it keeps, and how many cards a seat keeps. */
const TAIL = 3;
const KEPT = 64;
const FAILED = new Set(["failed", "killed", "error"]);

/**
 * The seat's subagent cards, fed by the CLI's own frames: a `task_started` of
 * type `local_agent` opens a card keyed by the call that dispatched it; the subagent's tool calls
 * (frames whose `parent_tool_use_id` is that call) count and fill its tail; `task_progress`
 * carries its usage; a terminal `task_updated` or `task_notification` ends it. `apply` answers
 * whether the cards moved, and whether the seat's has_dispatches flipped.
 */
export class SubagentCards {
  #cards = new Map<string, Card>();
  #byTask = new Map<string, string>();

  get hasDispatches(): boolean {
    return this.#cards.size > 0;
  }

  wire(): Card[] {
    return [...this.#cards.values()];
  }

  apply(frame: CliFrame): { moved: boolean; flipped: boolean } {
    const before = this.hasDispatches;
    const moved = this.#apply(frame);
    return { moved, flipped: before !== this.hasDispatches };
  }

  #apply(frame: CliFrame): boolean {
    const parent = typeof frame.parent_tool_use_id === "string" ? frame.parent_tool_use_id : null;
    if (frame.type === "assistant" && parent) return this.#calls(parent, frame);
    if (frame.type === "user" && parent) return this.#results(parent, frame);
    if (frame.type !== "system") return false;
    const taskId = typeof frame.task_id === "string" ? frame.task_id : null;
    if (!taskId) return false;
    if (frame.subtype === "task_started" && frame.task_type === "local_agent") {
      const id = typeof frame.tool_use_id === "string" ? frame.tool_use_id : taskId;
      this.#byTask.set(taskId, id);
      this.#cards.set(id, {
        name: String(frame.description ?? ""),
        dispatch_id: id,
        agent_type: String(frame.subagent_type ?? "general-purpose"),
        running: true,
        failed: false,
        backgrounded: frame.is_backgrounded === true,
        ended_at_ms: null,
        calls: 0,
        tail: [],
        usage: null,
      });
      while (this.#cards.size > KEPT) this.#cards.delete(this.#cards.keys().next().value!);
      return true;
    }
    const card = this.#cards.get(this.#byTask.get(taskId) ?? "");
    if (!card) return false;
    if (frame.subtype === "task_progress" && frame.usage && typeof frame.usage === "object") {
      const u = frame.usage as Record<string, unknown>;
      card.usage = {
        total_tokens: Number(u.total_tokens ?? 0),
        tool_uses: Number(u.tool_uses ?? 0),
        duration_ms: Number(u.duration_ms ?? 0),
      };
      return true;
    }
    const status = frame.subtype === "task_updated"
      ? (frame.patch as Record<string, unknown> | undefined)?.status
      : frame.subtype === "task_notification"
      ? frame.status
      : null;
    if (typeof status !== "string" || status === "running" || status === "pending") return false;
    card.running = false;
    card.failed = FAILED.has(status);
    const end = (frame.patch as Record<string, unknown> | undefined)?.end_time;
    card.ended_at_ms = typeof end === "number" ? end : Date.now();
    return true;
  }

  #calls(parent: string, frame: CliFrame): boolean {
    const card = this.#cards.get(parent);
    const content = (frame.message as { content?: unknown } | undefined)?.content;
    if (!card || !Array.isArray(content)) return false;
    let moved = false;
    for (const block of content as Record<string, unknown>[]) {
      if (block?.type !== "tool_use") continue;
      const name = String(block.name ?? "");
      card.calls += 1;
      card.tail.push({ name, title: titleOf(name, block.input), status: "pending" });
      if (card.tail.length > TAIL) card.tail.shift();
      moved = true;
    }
    return moved;
  }

  #results(parent: string, frame: CliFrame): boolean {
    const card = this.#cards.get(parent);
    const content = (frame.message as { content?: unknown } | undefined)?.content;
    if (!card || !Array.isArray(content)) return false;
    let moved = false;
    for (const block of content as Record<string, unknown>[]) {
      if (block?.type !== "tool_result") continue;
      const row = card.tail.find((t) => t.status === "pending");
      if (row) row.status = block.is_error === true ? "failed" : "completed";
      moved = true;
    }
    return moved;
  }
}

/** A call's one-line title: its tool and the first thing it names (a path, a command). */
function titleOf(name: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const what = [i.file_path, i.path, i.command, i.pattern, i.url, i.description]
    .find((v) => typeof v === "string") as string | undefined;
  return what ? `${name} ${what.split("\n")[0].slice(0, 120)}` : name;
}
