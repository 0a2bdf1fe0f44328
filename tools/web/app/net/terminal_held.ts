import { sameSlot, type Slot } from "../../../../protocol/mod.ts";
import type { TerminalAttach } from "./store.ts";

/** What the page held of a terminal when the socket went: given back once it is attached. */
export interface Held {
  seat: Slot;
  cols: number;
  rows: number;
  control: boolean;
}

/**
 * What a terminal pane owes the attach after a drop, kept across the drop: the size it was drawn
 * at and whether the person held control (spec: terminal_control: "dropping the connection
 * releases it"). What a second drop takes before it was given back is still owed: an attach
 * that never landed, a size or take asked for and not yet answered, a shell forge closed as it
 * went down.
 */
export class TerminalHeld {
  /** Held when the socket went; the next attach of that seat gives it back. */
  #held: Held | null = null;
  /** What the attach in force gives back once it lands. */
  #owed: Held | null = null;
  /** What the attach held when forge said its shell was gone (forge going down closes it). */
  #closed: Held | null = null;
  /** What it gave back on landing, and the size it landed at: asked for, maybe not yet done. */
  #given: (Held & { landed: { cols: number; rows: number } }) | null = null;

  /**
   * An attach of `seat` went out: it owes what was held of that seat, or what an attach before it
   * that never landed owed (another seat's is let go).
   */
  attached(seat: Slot): void {
    const owed = this.#held ?? this.#owed;
    this.#owed = owed && sameSlot(owed.seat, seat) ? owed : null;
    this.#held = this.#given = this.#closed = null;
  }

  /** The attach landed on `t`: what it gives back, if anything, noted as given. */
  landed(t: TerminalAttach): Held | null {
    const back = this.#owed;
    this.#owed = null;
    if (back) this.#given = { ...back, landed: { cols: t.cols, rows: t.rows } };
    return back;
  }

  /** forge said the shell `t` is gone: owed again if the socket goes next. */
  closed(t: TerminalAttach): void {
    this.#closed = this.#now(t);
  }

  /** The socket went with `t` attached (null: none had landed, or its shell had closed). */
  lost(t: TerminalAttach | null): void {
    this.#held = t ? this.#now(t) : this.#closed ?? this.#owed ?? this.#held;
    this.#owed = this.#given = this.#closed = null;
  }

  /** The person's own word (a resize, a take or a release): nothing given back is pending. */
  acted(): void {
    this.#given = null;
  }

  /** The person lowered the pane: nothing is given back. */
  lowered(): void {
    this.#held = this.#owed = null;
  }

  /**
   * What the attach holds now: its size and control, and what it gave back that forge has not
   * said is done yet - a size nobody changed since the landing, a take nobody else's beat.
   */
  #now(t: TerminalAttach): Held {
    const back = this.#given;
    const same = back && back.landed.cols === t.cols && back.landed.rows === t.rows;
    const size = same ? back : t;
    const control = t.controller === t.viewer || (!!back?.control && t.controller === null);
    return { seat: t.seat, cols: size.cols, rows: size.rows, control };
  }
}
