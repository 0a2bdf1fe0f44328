import type { SeatFailure } from "../../../protocol/mod.ts";
import type { ClaudeExit } from "../claude/mod.ts";

/** Where a seat's occupant is in its life (driver.ts); home draws it as the lifecycle (rows.ts). */
export type Phase = "sleeping" | "spawning" | "live" | "releasing" | "failed";

/** A failed seat's reason and the exit it came from: the session's `failure` (protocol/'s). */
export type Failure = SeatFailure;

/** A failure told in `message`, carrying the exit it came from (none: it never ran). */
export function failureOf(message: string, exit: ClaudeExit | null): Failure {
  return {
    message,
    code: exit?.code ?? null,
    signal: exit?.signal ?? null,
    stderr_tail: exit?.stderrTail ?? "",
  };
}

/** What the occupant was doing when its process ended unasked. */
export interface ExitMoment {
  phase: Phase;
  /** Why the start gave up on it (it did not answer `initialize`), null when it did not. */
  startError: string | null;
  turnInFlight: boolean;
}

/** The words for an unasked exit: how it ended, when, and the last of its stderr. */
export function exitMessage(exit: ClaudeExit, at: ExitMoment): string {
  const how = `claude exited (code ${exit.code}${exit.signal ? `, signal ${exit.signal}` : ""})`;
  const when = at.phase === "spawning"
    ? `before it was ready${at.startError ? ` (${at.startError})` : ""}`
    : at.turnInFlight
    ? "mid-turn"
    : "while idle";
  const tail = exit.stderrTail.trim();
  return `${how} ${when}${tail ? `; stderr: ${tail.slice(-500)}` : ""}`;
}

/** Why a seat in `phase` has no session to act on. */
export function noSessionWhy(phase: Phase, failure: Failure | null): string {
  return phase === "failed"
    ? `it failed: ${failure?.message ?? "unknown"}`
    : phase === "releasing"
    ? "it is being released"
    : "nothing occupies it";
}
