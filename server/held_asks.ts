import type { Slot, WireObject } from "../protocol/mod.ts";
import type { Peer, ToolResult } from "./subsystem.ts";

// The held asks' contract: one per-seat registry for every kind that parks a tool call until a
// person answers (server/workspace/seats/held.ts). spec: session > pending_asks (held kinds lead,
// in this order). Subsystems import it through server/subsystem.ts.

/** The held kinds, in the order `pending_asks` leads with them. */
export const HELD_KINDS = [
  "slack_post",
  "browser_hand_off",
  "document_hand_off",
  "terminal_hand_off",
  "vault_ask",
  "settings_write",
] as const;
export type HeldKind = typeof HELD_KINDS[number];

/** How a parked ask ended: in its `*_resolved` update and in the words the agent gets back. */
export type AskEnding =
  | "answered"
  | "declined"
  | "cancelled"
  | "session_ended"
  | "expired"
  | "abandoned";

/**
 * How a parked ask came back to its tool call. An answered ask whose spec named an `effect`
 * carries what the effect returned (`result`), which the call hands the agent.
 */
export type AskOutcome<A> =
  | { ending: "answered"; answer: A; result?: ToolResult }
  | { ending: Exclude<AskEnding, "answered">; note?: string };

/** What a subsystem parks. The registry mints the id unless one is given. */
export interface HeldAskSpec {
  kind: HeldKind;
  id?: string;
  /** The card a client draws (`pending_asks[].request` and the `*_pending` update's fields). */
  request: WireObject;
  /** The call's signal: an abort withdraws the ask with ending `cancelled`. */
  signal: AbortSignal;
  /** Ends the ask as `expired` after this long unanswered (a Slack draft: 600 s). */
  expiresMs?: number;
  /**
   * What an answer sets going (the settings file written and reloaded, the vault call run, the
   * Slack message posted). It runs once the person answers, and `*_resolved` goes out only when
   * it has landed: `failure` on that update carries the result's words when the effect failed
   * (an `isError` result, or a throw), else null. An effect that finds the answer asks for
   * nothing (a vault card sent back) returns null. Declines, expiries and withdrawals run none.
   */
  effect?: (answer: unknown) => Promise<ToolResult | null>;
}

export interface HeldAsks {
  /**
   * Parks an ask on a seat; emits its `*_pending` update and resolves when a person answers
   * (the answer as `respond_*` carried it, already validated by the caller's schema) or when
   * it is withdrawn (call cancelled, session ended, expired). The `*_resolved` update names
   * the ending, after the spec's `effect` landed. Wire (server/workspace/seats/held.ts
   * HELD_WIRE): `<kind>_pending {key, ...request, id}` and `<kind>_resolved {key, id, ending,
   * failure}` (a Slack post resolves as
   * `slack_draft_resolved`); `pending_asks` carries `{kind, id, seq, request: {...request, id}}`.
   * A call's signal aborted by forge carries its ending (`session_ended` when the CLI went away,
   * `cancelled` on an interrupt); the ask ends with it.
   */
  park<A>(slot: Slot, spec: HeldAskSpec): { id: string; outcome: Promise<AskOutcome<A>> };
  /**
   * Answers a parked ask for a person. Refuses (throws `Refusal`) a connection that never
   * declared answering, an id no longer waiting, or an id parked on another seat or kind.
   * `ending` is `answered` for an answer, `declined` for a no.
   */
  answer(
    slot: Slot,
    kind: HeldKind,
    id: string,
    peer: Peer,
    reply: { ending: "answered"; answer: unknown } | { ending: "declined"; note?: string },
  ): void;
  /** Replaces a parked card's request and re-pushes its `*_pending` (vault `needs_unlock`). */
  restamp(slot: Slot, id: string, request: WireObject): void;
  /** The asks parked on a seat, held kinds first, as `pending_asks` carries them. */
  list(slot: Slot): { kind: string; id: string; request: WireObject }[];
}
