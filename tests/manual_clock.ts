import type { Clock } from "../server/clock.ts";

/**
 * A clock a test moves by hand. Timers armed on it run only when the test advances past them,
 * in the order they fall due, so a test asserts what happened in which order and never waits.
 * `advanceBy` runs them back to back; `advanceSettling` lets the promises each one starts settle
 * before the next falls due (a send that fails and then arms its retry).
 */
export class ManualClock implements Clock {
  #timers: { fn: () => void; at: number; n: number }[] = [];
  #n = 0;
  constructor(public t = 0) {}

  now(): number {
    return this.t;
  }

  set(fn: () => void, ms: number): unknown {
    const timer = { fn, at: this.t + Math.max(0, ms), n: this.#n++ };
    this.#timers.push(timer);
    return timer;
  }

  clear(id: unknown): void {
    this.#timers = this.#timers.filter((x) => x !== id);
  }

  /** Timers armed and not yet run. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves to `t`, running every timer due on the way (a timer a run arms runs too if due). */
  advanceTo(t: number): void {
    for (let next = this.#due(t); next; next = this.#due(t)) next.fn();
    this.t = Math.max(this.t, t);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  /** `advanceBy`, with the promises settled before, between and after the timers it runs. */
  async advanceSettling(ms: number): Promise<void> {
    const end = this.t + ms;
    await settle();
    for (let next = this.#due(end); next; next = this.#due(end)) {
      next.fn();
      await settle();
    }
    this.t = Math.max(this.t, end);
  }

  /** Takes the first timer due by `t` off the list and moves the clock to it. */
  #due(t: number): { fn: () => void } | null {
    const next = this.#timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at || a.n - b.n)[0];
    if (!next) return null;
    this.#timers = this.#timers.filter((x) => x !== next);
    this.t = Math.max(this.t, next.at);
    return next;
  }
}

/** Lets pending promise callbacks (and the ones they start) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => queueMicrotask(r));
}
