import { sameSlot, type Slot, type Subject } from "../protocol/mod.ts";
import type { Attendance } from "./subsystem.ts";

/** What attendance reads of a connection. */
interface Viewer {
  readonly answering: boolean;
  readonly showing: Slot | null;
  /** The connection's subscriptions, counted (fanout.ts). */
  readonly subs: { count(subject: Subject): number };
}

/**
 * The Host's `attendance`, read off the live connections: a seat is attended while an answering
 * connection has it in `showing` (spec: showing; subscribe > answering). The dispatcher calls
 * `changed` when a connection's `showing` or answering moves or it lets a seat's session go, and
 * the server when one ends.
 */
export class SeatAttendance implements Attendance {
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly viewers: () => Iterable<Viewer>,
    /** Where a throwing listener's error goes (the log): it never stops the rest or the caller. */
    private readonly failed: (error: unknown) => void,
  ) {}

  attended(slot: Slot): boolean {
    for (const v of this.viewers()) {
      if (v.answering && v.showing !== null && sameSlot(v.showing, slot)) return true;
    }
    return false;
  }

  held(slot: Slot): boolean {
    for (const v of this.viewers()) if (v.subs.count({ session: slot }) > 0) return true;
    return false;
  }

  onChange(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Tells every listener; one that throws never stops the rest or the caller. */
  changed(): void {
    for (const fn of this.#listeners) {
      try {
        fn();
      } catch (error) {
        this.failed(error);
      }
    }
  }
}
