import type { AskEnding, HeldCard, HeldKind, HeldRequest, Slot } from "../protocol/mod.ts";
import type { Peer } from "./peer.ts";
import type { ToolResult } from "./tool_spec.ts";

// The held asks' contract: one per-seat registry for every kind that parks a tool call until a
// person answers (server/workspace/seats/held.ts). spec: session > pending_asks (held kinds lead,
// in this order). Subsystems import it through server/subsystem.ts.

// The held kinds (in the order `pending_asks` leads with them), their cards and how an ask ends
// are the wire's: protocol/held.ts.
export { type AskEnding, HELD_KINDS, type HeldKind } from "../protocol/mod.ts";

/**
 * How a parked ask came back to its tool call. An answered ask whose spec named an `effect`
 * carries what the effect returned (`result`), which the call hands the agent.
 */
export type AskOutcome<A> =
  | { ending: "answered"; answer: A; result?: ToolResult }
  | { ending: Exclude<AskEnding, "answered">; note?: string };

/** What a subsystem parks. The registry mints the id unless one is given. */
export type HeldAskSpec = { [K in HeldKind]: HeldAskOf<K> }[HeldKind];

/** What a subsystem parks for one kind: its card is that kind's (protocol/held.ts). */
export interface HeldAskOf<K extends HeldKind> {
  kind: K;
  id?: string;
  /** The card a client draws (`pending_asks[].request` and the `*_pending` update's fields). */
  request: HeldRequest<K>;
  /** The call's signal: an abort withdraws the ask with ending `cancelled`. */
  signal: AbortSignal;
  /** Ends the ask as `expired` after this long unanswered (a Slack draft: 600 s). */
  expiresMs?: number;
  /**
   * What an answer sets going (the settings file written and reloaded, the vault call run, the
   * Slack message posted). It runs once the person answers, and `*_resolved` goes out only when
   * it has landed: `failure` on that update carries the result's words when the effect failed
   * (an `isError` result, so the effect words it in forge's terms), else null. An effect that
   * throws or rejects resolves the ask too, with forge's words naming what failed (the thrown
   * cause goes to the log only). An effect that finds the answer asks for nothing (a vault card
   * sent back) returns null. Declines, expiries and withdrawals run none.
   */
  effect?: (answer: unknown) => Promise<ToolResult | null>;
}

export interface HeldAsks {
  /**
   * Parks an ask on a seat; emits its `*_pending` update and resolves when a person answers
   * (the answer as `respond_*` carried it, already validated by the caller's schema) or when
   * it is withdrawn (call cancelled, session ended, expired). The `*_resolved` update names
   * the ending, after the spec's `effect` landed. Wire (protocol/held.ts HELD_UPDATES):
   * `<kind>_pending {key, ...request, id}` and `<kind>_resolved {key, id, ending,
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
  restamp(slot: Slot, id: string, request: HeldRequest<HeldKind>): void;
  /** The asks parked on a seat, held kinds first, as `pending_asks` carries them. */
  list(slot: Slot): { kind: HeldKind; id: string; request: HeldCard }[];
}
