import type {
  AvailableModel,
  CliFrame,
  CurrentModel,
  McpRead,
  ProcessSnapshot,
  QueuedPrompt,
  SeatUpdate,
  SessionSnapshot,
  SlashCommand,
  SubagentRow,
} from "../../../protocol/mod.ts";
import type { JsonObject } from "../claude/mod.ts";
import { currentModel } from "../../../protocol/current_model.ts";
import { reportsNoCredential } from "./credential.ts";
import { availableModel } from "./model_wire.ts";
import { SubagentCards } from "./subagent_cards.ts";
import { TaskBook } from "./tasks.ts";

/** A derived update: its variant and fields, without the seat's `key` (the seat adds it). */
type Derived = SeatUpdate;

/** One prompt still waiting in the CLI's queue (spec: session > state.queue): protocol/'s. */
export type QueueRow = QueuedPrompt;

/** `command_lifecycle` states that take a prompt out of the queue. */
const SETTLED = new Set(["started", "completed", "cancelled", "discarded", "refused"]);

/**
 * What one occupant of a seat has told forge so far, and how each CLI frame moves it: the
 * header (model, permission mode, context, turn in flight), the queue, the advertised commands
 * and agents, the tasks, the composer's machine turn. `apply` returns the updates a frame
 * implies beyond its own `chat_appended` (spec: session subject table; the original's updates).
 */
export class SeatState {
  sessionId: string | null = null;
  model: string | null = null;
  /** The model forge launched with (null: the CLI's default), and whether the CLI named it. */
  requestedModel: string | null = null;
  modelAuthoritative = false;
  availableModels: AvailableModel[] = [];
  /** Names the seat runs beyond its catalogue: its launch model and its account's `models`. */
  servedModels: string[] = [];
  effort: string | null = null;
  /** When the last turn ended in turn_error (ms), null once a turn completes. */
  failedTurnAt: number | null = null;
  permissionMode: string | null = null;
  /** Whether the CLI's `initialize` answer named no credential (credential.ts): its turns end
   * "Not logged in" until an occupant that holds one (after a login) answers. */
  loggedOut = false;
  context: { percent: number | null; max_tokens: number | null } = {
    percent: null,
    max_tokens: null,
  };
  /** Tokens the last context reading counted (the probe's gate). */
  contextTokens = 0;
  turnInFlight = false;
  compacting = false;
  /** Whether the turn running was started by no person (spec: session > composer > machine). */
  machineTurn = false;
  /** Whether a prompt of the queue started the turn running (else the CLI started it). */
  promptStarted = false;
  /** The monitors last announced, to push monitors_changed only on a move. */
  #monitors = "[]";
  queue: QueueRow[] = [];
  slashCommands: SlashCommand[] = [];
  subagents: SubagentRow[] = [];
  mcp: McpRead | null = null;
  processes: ProcessSnapshot | null = null;
  readonly tasks = new TaskBook();
  readonly cards = new SubagentCards();

  /** Takes the `initialize` answer: models, commands, agents, permission mode. */
  initialize(res: JsonObject, launchModel: string | null): Derived[] {
    const models = Array.isArray(res.models) ? res.models as JsonObject[] : [];
    this.availableModels = models.map(availableModel);
    const fallback = models.find((m) => m.value === "default")?.resolvedModel;
    this.requestedModel = launchModel;
    this.model = launchModel ?? (typeof fallback === "string" ? fallback : null);
    this.modelAuthoritative = launchModel === null && this.model !== null;
    this.loggedOut = reportsNoCredential(res.account);
    if (typeof res.current_permission_mode === "string") {
      this.permissionMode = res.current_permission_mode;
    }
    const out: Derived[] = [];
    const commands = Array.isArray(res.commands) ? res.commands as JsonObject[] : [];
    this.slashCommands = commands.map((c) => ({
      name: String(c.name ?? ""),
      description: typeof c.description === "string" ? c.description : "",
      // The original's spelling: the CLI's argumentHint crosses as input_hint.
      input_hint: typeof c.argumentHint === "string" ? c.argumentHint : "",
    }));
    out.push({ name: "slash_commands_changed", fields: { commands: this.slashCommands } });
    const agents = Array.isArray(res.agents) ? res.agents as JsonObject[] : [];
    this.subagents = agents.map((a) => ({
      name: String(a.name ?? ""),
      description: typeof a.description === "string" ? a.description : "",
      // The agent type's own model ("inherit" or an alias), as the CLI advertises it.
      model: typeof a.model === "string" ? a.model : null,
    }));
    out.push({ name: "subagents_changed", fields: { subagents: this.subagents } });
    return out;
  }

  /** Moves the state by one CLI frame; returns the updates it implies. */
  apply(frame: CliFrame): Derived[] {
    const out: Derived[] = [];
    if (this.tasks.apply(frame)) {
      out.push(this.#tasksChanged());
      this.#monitorsMoved(out);
    }
    const cards = this.cards.apply(frame);
    if (cards.flipped) {
      out.push({
        name: "dispatches_changed",
        fields: { has_dispatches: this.cards.hasDispatches },
      });
    }
    if (cards.moved) {
      out.push({ name: "subagent_cards_changed", fields: { cards: this.cards.wire() } });
    }
    switch (frame.type) {
      case "command_lifecycle": {
        const uuid = typeof frame.command_uuid === "string" ? frame.command_uuid : null;
        const state = typeof frame.state === "string" ? frame.state : null;
        if (!uuid || !state) break;
        if (state === "started") {
          this.turnInFlight = true;
          // spec: composer > machine: a prompt forge's own machinery sent (a cron fire, a
          // delivery, a kick) runs a machine turn; a person's own send does not.
          const source = this.queue.find((q) => q.uuid === uuid)?.source ?? "you";
          this.machineTurn = source !== "you";
          this.promptStarted = true;
        }
        if (SETTLED.has(state)) this.queue = this.queue.filter((q) => q.uuid !== uuid);
        out.push({ name: "prompt_lifecycle", fields: { uuid, state } });
        break;
      }
      case "system":
        this.#system(frame, out);
        break;
      case "result":
        this.turnInFlight = false;
        this.compacting = false;
        this.machineTurn = false;
        this.promptStarted = false;
        if (this.tasks.endTurn()) {
          out.push(this.#tasksChanged());
          this.#monitorsMoved(out);
        }
        out.push(turnEnding(frame));
        // home > agents: why it failed if it did; the failure mark draws from when.
        if (out.at(-1)!.name === "turn_error") this.failedTurnAt = Date.now();
        if (out.at(-1)!.name === "turn_complete") this.failedTurnAt = null;
        break;
    }
    return out;
  }

  #system(frame: CliFrame, out: Derived[]): void {
    switch (frame.subtype) {
      case "init": {
        this.turnInFlight = true;
        // A turn no prompt started is the CLI's own: a Monitor event, a task's ending, a
        // scheduled wake-up wakes the model with nobody's words (spec: composer > machine).
        if (!this.promptStarted) this.machineTurn = true;
        if (typeof frame.model === "string") {
          this.model = frame.model;
          this.modelAuthoritative = true;
        }
        if (typeof frame.permissionMode === "string") this.permissionMode = frame.permissionMode;
        if (typeof frame.session_id === "string") this.sessionId = frame.session_id;
        const names = strings(frame.slash_commands);
        if (names && !sameNames(this.slashCommands, names)) {
          this.slashCommands = byNames(this.slashCommands, names, (name) => ({
            name,
            description: "",
            input_hint: "",
          }));
          out.push({ name: "slash_commands_changed", fields: { commands: this.slashCommands } });
        }
        const agents = strings(frame.agents);
        if (agents && !sameNames(this.subagents, agents)) {
          this.subagents = byNames(this.subagents, agents, (name) => ({
            name,
            description: "",
            model: null,
          }));
          out.push({ name: "subagents_changed", fields: { subagents: this.subagents } });
        }
        break;
      }
      case "session_state_changed":
        // The CLI's own word that a turn runs, ahead of the turn's init frame: home hears this
        // frame as fleet news (spec: What a client receives), so a home read it prompts must
        // already say Running. The turn's end stays the result's to say.
        if (frame.state === "running") this.turnInFlight = true;
        break;
      case "status":
        if (typeof frame.permissionMode === "string") this.permissionMode = frame.permissionMode;
        this.compacting = frame.status === "compacting";
        break;
    }
  }

  /**
   * The occupant's process ended: its process tree and its tasks are gone with it (spec:
   * session > processes, "a session ending clears it"; background_tasks and monitors are the
   * live ones). Returns the updates that say so, for what was not already empty.
   */
  ended(): Derived[] {
    const out: Derived[] = [];
    this.turnInFlight = false;
    if (this.processes !== null) {
      this.processes = null;
      out.push({ name: "processes_changed", fields: { snapshot: null } });
    }
    if (this.tasks.endAll()) {
      out.push(this.#tasksChanged());
      this.#monitorsMoved(out);
    }
    return out;
  }

  /**
   * The header's model as the original's CurrentModel (protocol/current_model.ts), null before
   * one is named.
   */
  currentModel(): CurrentModel | null {
    return currentModel(
      this.model,
      this.requestedModel,
      this.availableModels,
      this.modelAuthoritative,
    );
  }

  /** spec: session > monitors, pushed as monitors_changed when the set moves. */
  #monitorsMoved(out: Derived[]): void {
    const monitors = this.tasks.monitors();
    const text = JSON.stringify(monitors);
    if (text === this.#monitors) return;
    this.#monitors = text;
    out.push({ name: "monitors_changed", fields: { monitors } });
  }

  #tasksChanged(): Derived {
    return { name: "background_tasks_changed", fields: { tasks: this.tasks.wire() } };
  }

  /** spec: session > header: what the occupant told of itself, at the seat's next number. */
  header(seq: number): SessionSnapshot["header"] {
    return {
      session_id: this.sessionId,
      model: this.currentModel(),
      available_models: this.availableModels,
      effort: this.effort,
      permission_mode: this.permissionMode,
      context: this.context,
      turn_in_flight: this.turnInFlight,
      seq,
    };
  }
}

/** A result ends the turn as `turn_complete`, `turn_cancelled` or `turn_error` (the original's). */
function turnEnding(result: CliFrame): Derived {
  const reason = typeof result.terminal_reason === "string" ? result.terminal_reason : null;
  if (result.subtype === "error_during_execution" && reason?.startsWith("aborted")) {
    return { name: "turn_cancelled", fields: {} };
  }
  if (result.is_error === true || result.subtype !== "success") {
    const message = typeof result.result === "string"
      ? result.result
      : String(result.subtype ?? "error");
    return { name: "turn_error", fields: { message, class: null, terminal_reason: reason } };
  }
  return { name: "turn_complete", fields: { terminal_reason: reason } };
}

function strings(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? v as string[] : null;
}

function sameNames(rows: { name: string }[], names: string[]): boolean {
  if (rows.length !== names.length) return false;
  const have = new Set(rows.map((r) => r.name));
  return names.every((n) => have.has(n));
}

/** Rows for `names`, keeping what an earlier, richer list said about each. */
function byNames<R extends { name: string }>(
  rows: R[],
  names: string[],
  bare: (name: string) => R,
): R[] {
  const known = new Map(rows.map((r) => [r.name, r]));
  return names.map((name) => known.get(name) ?? bare(name));
}
