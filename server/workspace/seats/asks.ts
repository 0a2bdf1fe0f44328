import type {
  CliPendingAsk,
  PermissionOutcome,
  QuestionOutcome,
  SeatEmit,
  Slot,
} from "../../../protocol/mod.ts";
import { slotName } from "../../../protocol/mod.ts";
import { Refusal } from "../../subsystem.ts";
import type { CanUseToolRequest, JsonObject, PermissionDecision } from "../claude/mod.ts";
import { isJsonObject } from "../claude/mod.ts";
import { permissionRequest, questionRequest } from "./ask_wire.ts";

/** One parked ask as `pending_asks` carries it: adjacently tagged on `kind` + `request`. The
 * ask's `seq` is its own sequence in this server run (spec: home > boot_id). */
export type PendingAsk = CliPendingAsk;
type QuestionAsk = Extract<PendingAsk, { kind: "question" }>;
type PermissionAsk = Extract<PendingAsk, { kind: "permission" }>;

interface Waiter {
  tool_id: string;
  req: CanUseToolRequest;
  resolve: (d: PermissionDecision) => void;
  reject: (e: Error) => void;
  /** Question asks: the questions' entries, answers so far, and the ones still open. */
  questions?: { answers: JsonObject; annotations: JsonObject; open: Set<number> };
}

export interface AskSink {
  emit: SeatEmit;
  nextSeq(): number;
}

const DEFAULT_DENY = "The user denied this tool use.";
export const ASK_USER_QUESTION = "AskUserQuestion";

/**
 * A seat's parked asks, held as the original holds the CLI's control requests. A `can_use_tool` is
 * held under its `tool_use_id` until a person answers it: nothing answers it for them, so with no
 * answerer the turn waits (spec: subscribe > answering). AskUserQuestion parks one question ask per
 * question, all at once, answered front first. The CLI cancelling the request (an interrupt) or the
 * process ending resolves the ask as gone; an answer to an ask that is gone is refused naming it.
 */
export class AskBook {
  #asks: PendingAsk[] = [];
  #waiters = new Map<string, Waiter>();

  constructor(private readonly slot: Slot, private readonly sink: AskSink) {}

  /** Oldest first. */
  list(): PendingAsk[] {
    return this.#asks;
  }

  get size(): number {
    return this.#asks.length;
  }

  /** The CLI's `can_use_tool` handler: parks the ask and resolves when it is answered. */
  park(req: CanUseToolRequest, signal: AbortSignal): Promise<PermissionDecision> {
    // As the original does, a duplicate tool_use_id resolves the earlier waiter as a denial.
    this.#settle(req.tool_use_id, { behavior: "deny", message: "superseded by a newer request" });
    const { promise, resolve, reject } = Promise.withResolvers<PermissionDecision>();
    const waiter: Waiter = { tool_id: req.tool_use_id, req, resolve, reject };
    this.#waiters.set(req.tool_use_id, waiter);
    const questions = req.tool_name === ASK_USER_QUESTION && Array.isArray(req.input.questions)
      ? req.input.questions.filter(isJsonObject)
      : null;
    if (questions && questions.length > 0) {
      waiter.questions = {
        answers: {},
        annotations: {},
        open: new Set(questions.map((_, i) => i)),
      };
      questions.forEach((q, i) => {
        const request = questionRequest(req, q, i, questions.length);
        this.#add({
          kind: "question",
          tool_id: req.tool_use_id,
          seq: this.sink.nextSeq(),
          request,
        });
        this.sink.emit("question_request", { tool_id: req.tool_use_id, request });
      });
    } else {
      const request = permissionRequest(req);
      this.#add({
        kind: "permission",
        tool_id: req.tool_use_id,
        seq: this.sink.nextSeq(),
        request,
      });
      this.sink.emit("permission_request", { tool_id: req.tool_use_id, request });
    }
    const onAbort = () => this.#gone(req.tool_use_id, "the CLI withdrew the request");
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    return promise;
  }

  /** Answers a permission ask. Throws a Refusal naming the ask when it is not waiting. */
  answerPermission(toolId: string, outcome: PermissionOutcome): void {
    const waiter = this.#waiter(toolId, "respond_permission", "permission");
    if (outcome.outcome === "cancelled") {
      return this.#settle(toolId, { behavior: "deny", message: DEFAULT_DENY });
    }
    const ask = this.#asks.find((a): a is PermissionAsk =>
      a.tool_id === toolId && a.kind === "permission"
    )!;
    if (!ask.request.options.some((o) => o.option_id === outcome.option_id)) {
      throw this.#refuse(
        "respond_permission",
        `${toolId} offers no option \`${outcome.option_id}\``,
      );
    }
    const input = waiter.req.input;
    const action = outcome.action;
    switch (action.kind) {
      case "allow":
        return this.#settle(toolId, { behavior: "allow", updatedInput: input });
      case "allow_with_updates":
        return this.#settle(toolId, {
          behavior: "allow",
          updatedInput: input,
          updatedPermissions: action.updates as JsonObject[],
        });
      case "allow_with_input": {
        if (!isJsonObject(outcome.edited_input)) {
          throw this.#refuse(
            "respond_permission",
            `allow_with_input for ${toolId} needs edited_input, an object`,
          );
        }
        return this.#settle(toolId, { behavior: "allow", updatedInput: outcome.edited_input });
      }
      case "deny":
        return this.#settle(toolId, {
          behavior: "deny",
          message: outcome.notes_text?.trim() || DEFAULT_DENY,
        });
    }
  }

  /**
   * Answers the front open question of a question ask. The last answer allows the call with
   * `answers` (question text -> labels, a multi-select's joined by ", ") and `annotations`.
   */
  answerQuestion(toolId: string, outcome: QuestionOutcome): void {
    const waiter = this.#waiter(toolId, "respond_question", "question");
    const q = waiter.questions!;
    if (outcome.outcome === "cancelled") {
      return this.#settle(toolId, { behavior: "deny", message: "The user declined to answer." });
    }
    const index = Math.min(...q.open);
    const ask = this.#asks.find((a): a is QuestionAsk =>
      a.tool_id === toolId && a.kind === "question" && a.request.question_index === index
    )!;
    const prompt = ask.request.prompt;
    const chosen = outcome.selected_option_ids.map((id) => {
      const option = prompt.options.find((o) => o.option_id === id);
      if (!option) throw this.#refuse("respond_question", `${toolId} offers no option \`${id}\``);
      return option;
    });
    if (chosen.length > 1 && !prompt.multi_select) {
      throw this.#refuse("respond_question", `${toolId} question ${index} takes one option`);
    }
    const notes = outcome.annotation?.notes?.trim() || null;
    if (chosen.length === 0 && !notes) {
      throw this.#refuse("respond_question", `${toolId}: choose an option or write notes`);
    }
    // As the original does, a free-text answer with no option chosen is recorded as "Other"
    // with notes; the notes are the words, so they are what the model reads.
    q.answers[prompt.question] = chosen.length > 0 ? chosen.map((o) => o.label).join(", ") : notes!;
    const annotation: JsonObject = {};
    if (notes) annotation.notes = notes;
    const preview = outcome.annotation?.preview ?? chosen.find((o) => o.preview)?.preview;
    if (preview) annotation.preview = preview;
    if (Object.keys(annotation).length > 0) q.annotations[prompt.question] = annotation;
    q.open.delete(index);
    this.#asks = this.#asks.filter((a) => a !== ask);
    this.sink.emit("pending_interaction_resolved", {
      tool_id: toolId,
      question_index: index,
    });
    if (q.open.size > 0) return;
    this.#waiters.delete(toolId);
    const updatedInput: JsonObject = { ...waiter.req.input, answers: q.answers };
    if (Object.keys(q.annotations).length > 0) updatedInput.annotations = q.annotations;
    waiter.resolve({ behavior: "allow", updatedInput });
  }

  /** Every ask is gone (the process ended or was replaced). */
  clear(why: string): void {
    for (const toolId of [...this.#waiters.keys()]) this.#gone(toolId, why);
  }

  #waiter(toolId: string, what: string, kind: PendingAsk["kind"]): Waiter {
    const waiter = this.#waiters.get(toolId);
    if (!waiter || !this.#asks.some((a) => a.tool_id === toolId && a.kind === kind)) {
      throw this.#refuse(
        what,
        `no ${kind} ask ${toolId} is waiting (it was answered, withdrawn or never asked)`,
      );
    }
    return waiter;
  }

  /** A command refusal (`what` is `dispatch`), naming the command and seat. */
  #refuse(command: string, why: string): Refusal {
    return new Refusal("dispatch", `${command}: ${slotName(this.slot)}: ${why}`, this.slot);
  }

  #add(ask: PendingAsk): void {
    this.#asks.push(ask);
  }

  /** Resolves a waiter with a decision and drops its asks, announcing each. */
  #settle(toolId: string, decision: PermissionDecision): void {
    const waiter = this.#waiters.get(toolId);
    if (!waiter) return;
    this.#drop(toolId);
    waiter.resolve(decision);
  }

  /** The ask vanished without an answer: its handler is rejected (nothing is written back). */
  #gone(toolId: string, why: string): void {
    const waiter = this.#waiters.get(toolId);
    if (!waiter) return;
    this.#drop(toolId);
    waiter.reject(new Error(why));
  }

  #drop(toolId: string): void {
    this.#waiters.delete(toolId);
    const mine = this.#asks.filter((a) => a.tool_id === toolId);
    this.#asks = this.#asks.filter((a) => a.tool_id !== toolId);
    for (const ask of mine) {
      this.sink.emit("pending_interaction_resolved", {
        tool_id: toolId,
        question_index: ask.kind === "question" ? ask.request.question_index : null,
      });
    }
  }
}
