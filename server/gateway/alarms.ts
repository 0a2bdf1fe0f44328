/**
 * The gateway's clocks: a cooldown's end, a capped window's reset, a failed account's next
 * probe. One alarm per key at a time (setting a key again replaces it, the same time again is
 * a no-op); `clear` ends every alarm at shutdown.
 */
export class Alarms {
  readonly #byKey = new Map<string, { at: number; timer: ReturnType<typeof setTimeout> }>();

  /** Runs `fn` at unix ms `at` (now: `now`), replacing the key's earlier alarm. */
  set(key: string, at: number, now: number, fn: () => void): void {
    const held = this.#byKey.get(key);
    if (held?.at === at) return;
    if (held) clearTimeout(held.timer);
    const timer = setTimeout(() => {
      this.#byKey.delete(key);
      fn();
    }, Math.max(0, at - now));
    this.#byKey.set(key, { at, timer });
  }

  /** Ends the key's alarm, if one is set. */
  cancel(key: string): void {
    const held = this.#byKey.get(key);
    if (held) clearTimeout(held.timer);
    this.#byKey.delete(key);
  }

  clear(): void {
    for (const { timer } of this.#byKey.values()) clearTimeout(timer);
    this.#byKey.clear();
  }
}
