/**
 * One account's rotation clock: the 429 streak and the cooldown. `streak_count` 429s inside
 * `streak_window_secs` put the account in cooldown until the failing response's reset time, or
 * for `no_reset_cooldown_secs` when it names none (the original forge's `[gateway]` keys). Any
 * answer that is not a 429 ends the streak. Pure: the caller passes the time.
 */
export interface RotationRules {
  streakCount: number;
  streakWindowMs: number;
  noResetCooldownMs: number;
}

export class RotationClock {
  /** When each 429 of the current streak arrived. */
  #streak: number[] = [];
  /** Unix ms the cooldown ends, or null when not cooling. */
  until: number | null = null;

  /** Whether the account is cooling at `now`. */
  cooling(now: number): boolean {
    return this.until !== null && this.until > now;
  }

  /** How many 429s the current streak holds. */
  get streak(): number {
    return this.#streak.length;
  }

  /**
   * Counts one 429. Returns the cooldown's end when this one completes a streak (and starts the
   * cooldown), else null. `reset` is the reset time the response named, if any.
   */
  rateLimited(now: number, reset: number | null, rules: RotationRules): number | null {
    this.#streak = this.#streak.filter((t) => now - t <= rules.streakWindowMs);
    this.#streak.push(now);
    if (this.#streak.length < rules.streakCount) return null;
    this.#streak = [];
    this.until = reset !== null && reset > now ? reset : now + rules.noResetCooldownMs;
    return this.until;
  }

  /** An answer that was not a 429: the streak is over. */
  answered(): void {
    this.#streak = [];
  }

  /** Ends the cooldown (its time came). */
  cooled(): void {
    this.until = null;
  }
}
