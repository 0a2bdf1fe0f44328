import type { SessionUpdate, Slot, Wire, WireObject } from "../../../protocol/mod.ts";
import { sameSlot, slotName } from "../../../protocol/mod.ts";
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

/** Each held kind's updates and the command (or verb) that answers it. spec: session >
 * pending_asks; catalogue 2.3 (`slack_post_pending` is resolved by `slack_draft_resolved`). */
export const HELD_WIRE: Record<HeldKind, HeldWire> = {
  slack_post: {
    pending: "slack_post_pending",
    resolved: "slack_draft_resolved",
    answer: "respond_slack_post",
    // catalogue 2.3 #61: `slack_post_pending {key, draft}`, the card under `draft`.
    pendingFields: (request) => ({ draft: request }),
    // catalogue 3 SlackDraftEnding: "expired", "abandoned" or {answered: {approved}}; a draft
    // withdrawn any other way (its call cancelled, the session ended) was abandoned.
    ending: (ending) =>
      ending === "answered" || ending === "declined"
        ? { answered: { approved: ending === "answered" } }
        : ending === "expired"
        ? "expired"
        : "abandoned",
  },
  browser_hand_off: {
    pending: "browser_hand_off_pending",
    resolved: "browser_hand_off_resolved",
    answer: "respond_browser_hand_off",
  },
  document_hand_off: {
    pending: "document_hand_off_pending",
    resolved: "document_hand_off_resolved",
    answer: "answer_document_hand_off",
  },
  terminal_hand_off: {
    pending: "terminal_hand_off_pending",
    resolved: "terminal_hand_off_resolved",
    answer: "respond_terminal_hand_off",
  },
  vault_ask: {
    pending: "vault_ask_pending",
    resolved: "vault_ask_resolved",
    answer: "respond_vault_ask",
  },
  settings_write: {
    pending: "settings_write_pending",
    resolved: "settings_write_resolved",
    answer: "respond_settings_write",
  },
};

/** A held kind's wire names, and how its updates carry the card and the ending when that is
 * not the default (`{key, ...request}` and the ending's own name). */
export interface HeldWire {
  pending: string;
  resolved: string;
  answer: string;
  pendingFields?: (request: WireObject) => WireObject;
  ending?: (ending: AskEnding) => Wire;
}

/** The kinds that hold the seat's machine turn: the composer shows `handoff` while one waits. */
const HAND_OFFS = new Set<HeldKind>(["browser_hand_off", "document_hand_off", "terminal_hand_off"]);

/** One parked ask as `pending_asks` carries it (the card's own `id` is inside `request` too). */
export interface HeldCard {
  kind: HeldKind;
  id: string;
  seq: number;
  request: WireObject;
}

interface Held extends HeldCard {
  slot: Slot;
  arrival: number;
  effect?: HeldAskSpec["effect"];
  settle: (outcome: AskOutcome<unknown>) => void;
}

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

  constructor(private readonly emit: (update: SessionUpdate) => void) {}

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
    const command = HELD_WIRE[kind].answer;
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

  restamp(slot: Slot, id: string, request: WireObject): void {
    const held = this.#asks.get(id);
    if (!held || !sameSlot(held.slot, slot)) return;
    held.request = { ...request, id };
    this.#emitPending(held);
  }

  list(slot: Slot): HeldCard[] {
    // spec: session > pending_asks: the held kinds lead in their order, arrival order within one.
    return [...this.#asks.values()]
      .filter((h) => sameSlot(h.slot, slot))
      .sort((a, b) =>
        HELD_KINDS.indexOf(a.kind) - HELD_KINDS.indexOf(b.kind) || a.arrival - b.arrival
      )
      .map(({ kind, id, seq, request }) => ({ kind, id, seq, request }));
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
    const wire = HELD_WIRE[held.kind];
    const body = wire.pendingFields ? wire.pendingFields(held.request) : held.request;
    this.emit({ name: wire.pending, fields: { key: held.slot, ...body } });
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
    held.effect(answer).catch((err): ToolResult => ({
      text: err instanceof Error ? err.message : String(err),
      isError: true,
    })).then((result) => {
      const landed = { ending: "answered" as const, answer, ...(result ? { result } : {}) };
      this.#resolve(held, landed, result?.isError ? result.text : null);
    });
  }

  #resolve(held: Held, outcome: AskOutcome<unknown>, failure: string | null): void {
    const wire = HELD_WIRE[held.kind];
    const ending = wire.ending?.(outcome.ending) ?? outcome.ending;
    this.emit({ name: wire.resolved, fields: { key: held.slot, id: held.id, ending, failure } });
    held.settle(outcome);
  }
}
