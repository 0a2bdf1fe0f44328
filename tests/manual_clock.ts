import type { Clock } from "../server/clock.ts";

/**
 * A clock a test moves by hand. Timers armed on it run only when the test advances past them,
 * in the order they fall due, so a test asserts what happened in which order and never waits.
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
    for (;;) {
      const due = this.#timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at || a.n - b.n);
      if (due.length === 0) break;
      const next = due[0];
      this.#timers = this.#timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = Math.max(this.t, t);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.t + ms);
  }
}
