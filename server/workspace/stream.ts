import type { SessionUpdate, Slot } from "../../protocol/mod.ts";
import { slotName, updateSlot } from "../../protocol/mod.ts";

/** An update as it leaves the workspace: its place in its seat's sequence. spec: update {seq, span}. */
export interface NumberedUpdate {
  update: SessionUpdate;
  slot: Slot | null;
  /** The number the update was minted under; null for a keyless update. */
  seq: number | null;
  /** How many of the seat's numbers the frame stands for (1 unless a fold merged a run). */
  span: number;
  /** A connection the update is for alone (a take's news); null for everyone it routes to. */
  only: number | null;
}

/**
 * The workspace's update stream. Every frame emitted for a seat is numbered on that seat's own
 * counter, so a client that reads 5 then 7 knows one went missing. spec: What a client receives.
 */
export class UpdateStream {
  #next = new Map<string, number>();
  #listeners = new Set<(u: NumberedUpdate) => void>();

  /** The number the seat's next frame will carry (`header.seq`). */
  nextSeq(slot: Slot): number {
    return this.#next.get(slotName(slot)) ?? 0;
  }

  /** Numbers and publishes one update. `only` routes a connection-owned update (a take's news). */
  emit(update: SessionUpdate, only: number | null = null): NumberedUpdate {
    const slot = updateSlot(update);
    let seq: number | null = null;
    if (slot) {
      const name = slotName(slot);
      seq = this.#next.get(name) ?? 0;
      this.#next.set(name, seq + 1);
    }
    const numbered: NumberedUpdate = { update, slot, seq, span: 1, only };
    for (const fn of this.#listeners) {
      try {
        fn(numbered);
      } catch {
        // One listener's failure never stops the stream reaching the others.
      }
    }
    return numbered;
  }

  subscribe(fn: (u: NumberedUpdate) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}
