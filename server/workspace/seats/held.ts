import type {
  HeldCard as WireCard,
  HeldPendingAsk,
  HeldRequest,
  SessionUpdate,
  Slot,
} from "../../../protocol/mod.ts";
import { heldPending, heldResolved, sameSlot, slotName } from "../../../protocol/mod.ts";
import {
  type AskEnding,
  type AskOutcome,
  HELD_KINDS,
  type HeldAsks,
  type HeldAskSpec,
  type HeldKind,
  type Peer,
  Refusal,
  type ToolResult,
} from "../../subsystem.ts";
import type { Logger } from "../../log.ts";

/** The command (or verb) that answers each held kind; its updates are protocol/held.ts
 * HELD_UPDATES. spec: session > pending_asks. */
export const HELD_ANSWER: Record<HeldKind, string> = {
  slack_post: "respond_slack_post",
  browser_hand_off: "respond_browser_hand_off",
  document_hand_off: "answer_document_hand_off",
  terminal_hand_off: "respond_terminal_hand_off",
  vault_ask: "respond_vault_ask",
  settings_write: "respond_settings_write",
};

/** The kinds that hold the seat's machine turn: the composer shows `handoff` while one waits. */
const HAND_OFFS = new Set<HeldKind>(["browser_hand_off", "document_hand_off", "terminal_hand_off"]);

/** One parked ask as `pending_asks` carries it (the card's own `id` is inside `request` too). */
export interface HeldCard {
  kind: HeldKind;
  id: string;
  seq: number;
  request: WireCard;
}

interface Held extends HeldCard {
  slot: Slot;
  arrival: number;
  effect?: HeldAskSpec["effect"];
  settle: (outcome: AskOutcome<unknown>) => void;
}

const SILENT: Pick<Logger, "warn"> = { warn: () => {} };

/** What an answered ask's effect that threw is told as: forge's words, naming what failed. */
export function effectFailed(kind: HeldKind): string {
  return `the approved ${EFFECT_NAMES[kind]} did not go through: it failed inside forge ` +
    "(forge's log has the cause under held_effect_failed)";
}

const EFFECT_NAMES: Record<HeldKind, string> = {
  slack_post: "Slack message",
  browser_hand_off: "browser hand-off",
  document_hand_off: "document hand-off",
  terminal_hand_off: "terminal hand-off",
  vault_ask: "vault call",
  settings_write: "settings write",
};

/** Why a call's signal aborted, when forge aborted it: the ending its asks end with. */
export function endingOf(reason: unknown): Exclude<AskEnding, "answered"> {
  const ending = (reason as { ending?: unknown } | null)?.ending;
  return ending === "session_ended" || ending === "expired" || ending === "abandoned"
    ? ending
    : "cancelled";
}

/**
 * Every seat's held asks: the one registry a tool call parks through until a person
 * answers. An ask is keyed by its id and owned by one seat; it emits its `*_pending` update when
 * parked and its `*_resolved {id, ending}` when it ends, however it ends: answered, declined,
 * its call cancelled (an interrupt), the session ended, expired. Nothing here belongs to a
 * connection, so a parked ask outlives a client's reconnect. The seq counter is shared with the
 * seats' permission and question asks (spec: home > pending_seq).
 */
export class HeldAskRegistry implements HeldAsks {
  #asks = new Map<string, Held>();
  #arrivals = 0;
  #seq = 0;

  /**
   * `emit` carries the asks' updates; `log` (forge's log) gets what an effect threw or a failed
   * emit, words no client or agent sees.
   */
  constructor(
    private readonly emit: (update: SessionUpdate) => void,
    private readonly log: Pick<Logger, "warn"> = SILENT,
  ) {}

  /** The next ask sequence number of this server run (permission and question asks too). */
  nextSeq(): number {
    return ++this.#seq;
  }

  park<A>(slot: Slot, spec: HeldAskSpec): { id: string; outcome: Promise<AskOutcome<A>> } {
    const id = spec.id ?? crypto.randomUUID();
    if (this.#asks.has(id)) throw new Error(`an ask with id ${id} is already parked`);
    const { promise, resolve } = Promise.withResolvers<AskOutcome<A>>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => this.#end(id, { ending: endingOf(spec.signal.reason) });
    const held: Held = {
      kind: spec.kind,
      id,
      seq: this.nextSeq(),
      request: { ...spec.request, id },
      slot,
      arrival: ++this.#arrivals,
      effect: spec.effect,
      settle: (outcome) => {
        clearTimeout(timer);
        spec.signal.removeEventListener("abort", onAbort);
        resolve(outcome as AskOutcome<A>);
      },
    };
    this.#asks.set(id, held);
    this.#emitPending(held);
    if (spec.signal.aborted) onAbort();
    else spec.signal.addEventListener("abort", onAbort, { once: true });
    if (spec.expiresMs !== undefined && this.#asks.has(id)) {
      timer = setTimeout(() => this.#end(id, { ending: "expired" }), spec.expiresMs);
    }
    return { id, outcome: promise };
  }

  answer(
    slot: Slot,
    kind: HeldKind,
    id: string,
    peer: Peer,
    reply: { ending: "answered"; answer: unknown } | { ending: "declined"; note?: string },
  ): void {
    const command = HELD_ANSWER[kind];
    const refuse = (why: string) =>
      new Refusal(
        command === "answer_document_hand_off" ? command : "dispatch",
        `${command}: ${slotName(slot)}: ${why}`,
        slot,
      );
    if (!peer.answering) {
      // spec: subscribe > answering: a read-only client reads asks and answers none.
      throw refuse(
        "this connection did not declare answering (subscribe with answering: true); a read-only client reads asks and answers none",
      );
    }
    const held = this.#asks.get(id);
    if (!held || held.kind !== kind) {
      throw refuse(`no ${kind} ask ${id} is waiting (it was answered, withdrawn or never asked)`);
    }
    if (!sameSlot(held.slot, slot)) {
      throw refuse(`the ${kind} ask ${id} is parked on ${slotName(held.slot)}, not this seat`);
    }
    this.#end(id, reply);
  }

  restamp(slot: Slot, id: string, request: HeldRequest<HeldKind>): void {
    const held = this.#asks.get(id);
    if (!held || !sameSlot(held.slot, slot)) return;
    held.request = { ...request, id };
    this.#emitPending(held);
  }

  list(slot: Slot): HeldPendingAsk[] {
    // spec: session > pending_asks: the held kinds lead in their order, arrival order within one.
    return [...this.#asks.values()]
      .filter((h) => sameSlot(h.slot, slot))
      .sort((a, b) =>
        HELD_KINDS.indexOf(a.kind) - HELD_KINDS.indexOf(b.kind) || a.arrival - b.arrival
      )
      // park paired each kind with its own card (HeldAskSpec); the record holds them apart.
      .map(({ kind, id, seq, request }) => ({ kind, id, seq, request }) as HeldPendingAsk);
  }

  /** Whether a hand-off holds the seat's machine turn. spec: session > composer (`handoff`). */
  handingOff(slot: Slot): boolean {
    return [...this.#asks.values()].some((h) => sameSlot(h.slot, slot) && HAND_OFFS.has(h.kind));
  }

  /** Ends every ask a seat holds (its session ended or was replaced). */
  endSeat(slot: Slot, ending: Exclude<AskEnding, "answered">): void {
    for (const held of [...this.#asks.values()]) {
      if (sameSlot(held.slot, slot)) this.#end(held.id, { ending });
    }
  }

  #emitPending(held: Held): void {
    this.emit(heldPending(held.kind, held.slot, held.request));
  }

  /**
   * Ends an ask: it leaves the registry at once (so no second answer lands), its effect runs
   * when it was answered, and only then does `*_resolved` go out, naming a failed effect.
   */
  #end(id: string, outcome: AskOutcome<unknown>): void {
    const held = this.#asks.get(id);
    if (!held) return;
    this.#asks.delete(id);
    if (outcome.ending !== "answered" || !held.effect) return this.#resolve(held, outcome, null);
    const answer = outcome.answer;
    const effect = held.effect;
    // An effect that throws at once, rejects, or returns something odd still resolves the ask,
    // once: its cause goes to the log, and the update and the agent read forge's words.
    Promise.resolve()
      .then(() => effect(answer))
      .catch((error): ToolResult => {
        this.log.warn("held_effect_failed", { kind: held.kind, id: held.id, error: String(error) });
        return { text: effectFailed(held.kind), isError: true };
      })
      .then((result) => {
        const landed = { ending: "answered" as const, answer, ...(result ? { result } : {}) };
        this.#resolve(held, landed, result?.isError ? result.text : null);
      })
      .catch((error) => {
        // The last guard: nothing above should throw, but an ask never hangs and no rejection
        // goes unhandled. A second settle of a settled ask changes nothing.
        this.log.warn("held_resolve_failed", {
          kind: held.kind,
          id: held.id,
          error: String(error),
        });
        const result = { text: effectFailed(held.kind), isError: true };
        held.settle({ ending: "answered", answer, result });
      });
  }

  #resolve(held: Held, outcome: AskOutcome<unknown>, failure: string | null): void {
    try {
      this.emit(heldResolved(held.kind, held.slot, held.id, outcome.ending, failure));
    } catch (error) {
      // A client that could not be told must not leave the tool call waiting forever.
      this.log.warn("held_resolve_failed", { kind: held.kind, id: held.id, error: String(error) });
    }
    held.settle(outcome);
  }
}
