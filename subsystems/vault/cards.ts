import { sameSlot, type Slot, slotName } from "../../protocol/mod.ts";
import type { VaultAnswer, VaultAskRequest } from "../../protocol/vault.ts";
import type { Host, ToolCall, ToolResult } from "../../server/subsystem.ts";

/** A parked vault call forge is waiting on, as the vault itself tracks it. */
interface Card {
  slot: Slot;
  request: VaultAskRequest;
  /** Set while an approval's unlock runs: a restamp skips the card being answered. */
  answering: boolean;
  /** Fills what only the open vault knows (an attachment's size); never a secret. */
  fill?: () => Promise<Partial<VaultAskRequest>>;
}

/**
 * The vault's own view of its parked cards: what each one drew, so the lock state can be
 * restamped onto every card still parked (spec: `needs_unlock` is stamped from the live session
 * on every read; an unlock pushes a restamped `vault_ask_pending` for each card still parked, a
 * re-lock pushes it the other way). Parking, answering and the resolved frame are the Host's.
 */
export class VaultCards {
  readonly #cards = new Map<string, Card>();

  constructor(
    private readonly host: Host,
    private readonly locked: () => boolean,
    /** Why no vault can be opened (no server_url or email), or null when one can. */
    private readonly unusable: () => string | null = () => null,
  ) {}

  /**
   * Parks one call and waits for the person. `run` performs the call once approved, before the
   * card resolves; every other ending is answered to the agent in words.
   */
  async hold(
    call: ToolCall,
    draft: Omit<VaultAskRequest, "needs_unlock">,
    run: () => Promise<ToolResult>,
    fill?: () => Promise<Partial<VaultAskRequest>>,
  ): Promise<ToolResult> {
    // A card no answer could approve is not asked: the agent hears why at once.
    const unusable = this.unusable();
    if (unusable) return { text: `The vault cannot be used: ${unusable}.`, isError: true };
    const slot = call.seat.slot;
    const request: VaultAskRequest = { ...draft, needs_unlock: this.locked() };
    // The call is the ask's effect: vault_ask_resolved goes out once the vault item changed (or
    // the call failed, in words). A card sent back runs nothing.
    const parked = this.host.asks.park<VaultAnswer>(slot, {
      kind: "vault_ask",
      request,
      signal: call.signal,
      effect: (answer) =>
        typeof answer === "object" && answer !== null && "send_back" in answer
          ? Promise.resolve(null)
          : run(),
    });
    const card: Card = { slot, request, answering: false, fill };
    this.#cards.set(parked.id, card);
    this.#fill(parked.id, card);
    let outcome;
    try {
      outcome = await parked.outcome;
    } finally {
      this.#cards.delete(parked.id);
    }
    this.host.log.info("vault_call", {
      seat: slotName(slot),
      id: parked.id,
      tool: draft.tool,
      ending: outcome.ending,
    });
    if (outcome.ending === "answered") {
      const answer = outcome.answer;
      if (outcome.result) return outcome.result;
      const note = typeof answer === "object" && "send_back" in answer
        ? answer.send_back.note
        : "(no note)";
      return {
        text: `The person sent this vault call back without running it: ${note}`,
        isError: true,
      };
    }
    if (outcome.ending === "declined") {
      const why = outcome.note ? `: ${outcome.note}` : ".";
      return { text: `The person declined this vault call${why}`, isError: true };
    }
    return {
      text: `The vault call was not answered (${outcome.ending.replace("_", " ")}).`,
      isError: true,
    };
  }

  /** The card with this id, checked against the seat the answer named. Throws a sentence. */
  find(slot: Slot, id: string): Card {
    const card = this.#cards.get(id);
    if (!card) throw new Error(`no vault call ${id} is waiting for an answer`);
    if (!sameSlot(card.slot, slot)) {
      throw new Error(
        `vault call ${id} is parked on ${slotName(card.slot)}, not ${slotName(slot)}`,
      );
    }
    return card;
  }

  /** Pushes every parked card again with `needs_unlock` stamped from the session now. */
  restampAll(): void {
    const locked = this.locked();
    for (const [id, card] of this.#cards) {
      if (card.answering || card.request.needs_unlock === locked) continue;
      card.request = { ...card.request, needs_unlock: locked };
      this.host.asks.restamp(card.slot, id, card.request);
      this.#fill(id, card);
    }
  }

  /** While the vault is open, completes a card's draft and pushes it again if it changed. */
  #fill(id: string, card: Card): void {
    if (!card.fill || this.locked()) return;
    card.fill().then((more) => {
      const next = { ...card.request, ...more, needs_unlock: this.locked() };
      if (this.#cards.get(id) !== card || JSON.stringify(next) === JSON.stringify(card.request)) {
        return;
      }
      card.request = next;
      this.host.asks.restamp(card.slot, id, card.request);
    }).catch(() => {
      // The card keeps what the call itself said; the approval's run reports any failure.
    });
  }
}
