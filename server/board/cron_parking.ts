import type { CronEntry } from "../../protocol/mod.ts";

interface Parked {
  /** Shown as the entry's `last_error` while it is parked. */
  why: string;
  /** The entry as it stood when parked: a change to it releases it. */
  form: string;
  /** When it is tried again; Infinity: not this run, unless it changes. */
  until: number;
}

/**
 * The schedules the tick does not fire for now, each with why: one whose fire threw (until it is
 * changed or deleted, or forge restarts: it would throw again) and one whose advance could not be
 * saved (until a retry instant: fired again at once it would spin). Kept in memory only, so a
 * restart tries each once more.
 */
export class Parking {
  readonly #parked = new Map<string, Parked>();

  park(e: CronEntry, why: string, until = Infinity): void {
    this.#parked.set(e.id, { why, form: formOf(e), until });
  }

  release(id: string): void {
    this.#parked.delete(id);
  }

  /** Why `id` is parked; undefined when it is not. */
  why(id: string): string | undefined {
    return this.#parked.get(id)?.why;
  }

  /** When `e` is next due: its next fire, or a parked one's retry (Infinity: not this run). */
  wakeAt(e: CronEntry): number {
    return this.#parked.get(e.id)?.until ?? Date.parse(e.next_fire);
  }

  /**
   * Releases every parked schedule that changed or is gone from `entries`: it fires as it now
   * stands. Answers the ids released that were waiting for a change.
   */
  releaseChanged(entries: CronEntry[]): string[] {
    const woken: string[] = [];
    for (const [id, parked] of this.#parked) {
      const e = entries.find((x) => x.id === id);
      if (e && formOf(e) === parked.form) continue;
      this.#parked.delete(id);
      if (e && parked.until === Infinity) woken.push(id);
    }
    return woken;
  }
}

/** An entry as the file holds it, apart from the `last_error` a park shows on it. */
function formOf(e: CronEntry): string {
  return JSON.stringify({ ...e, last_error: null });
}
