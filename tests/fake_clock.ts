import type { Clock } from "../subsystems/notify/clock.ts";

/**
 * A clock a test moves by hand: `advance` runs every timer that falls due, in time order, and
 * lets the promises they start settle between timers, so a test sees what a wall clock would
 * have done over that span without waiting for it.
 */
export class FakeClock implements Clock {
  #now: number;
  #timers: { at: number; seq: number; fn: () => void }[] = [];
  #seq = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.#now + Math.max(0, ms), seq: ++this.#seq, fn };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time on by `ms`, running what falls due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    await settle();
    for (;;) {
      const next = this.#timers.filter((t) =>
        t.at <= end
      ).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = next.at;
      next.fn();
      await settle();
    }
    this.#now = end;
  }
}

/** Lets pending promise callbacks (and the ones they start) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => queueMicrotask(r));
}
