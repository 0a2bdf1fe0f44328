import type { NotifyKind, Slot } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import type { Clock } from "../../server/clock.ts";
import type { NeedChange } from "./needs.ts";
import type { Need, Push } from "./push.ts";

/**
 * How long a seat's first need waits for the ones that arrive with it: a burst of asks (several
 * tool calls parked at once) leaves as one push counting them, not as one push and a follow-up.
 */
export const GATHER_MS = 500;

/** What the notifier reads live from the config. */
export interface NotifierSettings {
  kinds: readonly NotifyKind[];
  coalesceMs: number;
}

interface Waiting extends Need {
  /** Whether a push has carried it already: it is counted again, never the reason again. */
  pushed: boolean;
}

interface SeatBook {
  slot: Slot;
  needs: Map<string, Waiting>;
  lastPush: number | null;
  /** The armed push's timer (the clock's handle), or null. */
  timer: unknown;
}

const ASK: NotifyKind = "ask";

/**
 * Decides when a seat's person is pushed (docs/notify.md "When"): never while an answering
 * connection shows the seat; a need still waiting when its last viewer leaves is pushed then;
 * an ask answered before its push leaves is never pushed; at most one push per seat per
 * `coalesce_secs`, carrying how many things wait. Events (a failure, a finished turn, a
 * sign-in) are pushed once and dropped; a viewer who sees the seat has seen them. Asks wait
 * until answered. Nothing here waits on a send: `deliver` only starts one.
 */
export class Notifier {
  readonly #seats = new Map<string, SeatBook>();

  constructor(
    private readonly opts: {
      clock: Clock;
      settings: () => NotifierSettings;
      attended: (slot: Slot) => boolean;
      compose: (slot: Slot, needs: Need[]) => Push;
      /** Starts a push; `wanted` says, before each retry, whether anything it carried waits. */
      deliver: (push: Push, wanted: () => boolean) => void;
      /** A need the person saw in front of them, so no push carries it (for the log). */
      held?: (slot: Slot, need: Need) => void;
    },
  ) {}

  apply(change: NeedChange): void {
    const book = this.#book(change.slot);
    if (change.type === "gone") {
      book.needs.delete(change.id);
      if (![...book.needs.values()].some((n) => !n.pushed)) this.#cancel(book);
      return;
    }
    const need = change.need;
    if (!this.opts.settings().kinds.includes(need.kind)) return;
    const before = book.needs.get(need.id);
    if (this.opts.attended(change.slot)) {
      this.opts.held?.(change.slot, need);
      // An event seen as it happens is seen; an ask is still waiting when the viewer leaves.
      if (need.kind !== ASK) return;
    }
    // A restamped card (a vault card after an unlock) keeps whether it was pushed.
    book.needs.set(need.id, { ...need, pushed: before?.pushed ?? false });
    if (!before?.pushed) this.#schedule(book);
  }

  /** A connection's `showing` or answering moved, or one ended. */
  attendanceChanged(): void {
    for (const book of this.#seats.values()) {
      if (this.opts.attended(book.slot)) {
        this.#cancel(book);
        for (const [id, n] of book.needs) if (n.kind !== ASK) book.needs.delete(id);
      } else if ([...book.needs.values()].some((n) => !n.pushed)) {
        this.#schedule(book);
      }
    }
  }

  /** Every timer stops (shutdown). */
  stop(): void {
    for (const book of this.#seats.values()) this.#cancel(book);
  }

  /** How many needs wait on a seat (tests, and the log). */
  waiting(slot: Slot): number {
    return this.#seats.get(slotName(slot))?.needs.size ?? 0;
  }

  #book(slot: Slot): SeatBook {
    const name = slotName(slot);
    let book = this.#seats.get(name);
    if (!book) {
      this.#seats.set(name, book = { slot, needs: new Map(), lastPush: null, timer: null });
    }
    return book;
  }

  #schedule(book: SeatBook): void {
    if (book.timer !== null || this.opts.attended(book.slot)) return;
    const now = this.opts.clock.now();
    const at = Math.max(
      now + GATHER_MS,
      (book.lastPush ?? -Infinity) + this.opts.settings().coalesceMs,
    );
    book.timer = this.opts.clock.set(() => {
      book.timer = null;
      this.#fire(book);
    }, at - now);
  }

  #cancel(book: SeatBook): void {
    if (book.timer !== null) this.opts.clock.clear(book.timer);
    book.timer = null;
  }

  #fire(book: SeatBook): void {
    if (this.opts.attended(book.slot)) return;
    const needs = [...book.needs.values()];
    if (!needs.some((n) => !n.pushed)) return;
    const push = this.opts.compose(
      book.slot,
      needs.map(({ kind, id, line }) => ({ kind, id, line })),
    );
    const asks = needs.filter((n) => n.kind === ASK).map((n) => n.id);
    const events = needs.some((n) => n.kind !== ASK);
    for (const n of needs) {
      if (n.kind === ASK) n.pushed = true;
      else book.needs.delete(n.id);
    }
    book.lastPush = this.opts.clock.now();
    // A push that carried only asks is withdrawn once every one of them was answered.
    this.opts.deliver(push, () => events || asks.some((id) => book.needs.has(id)));
  }
}
