import type { ClientMessageOf, Slot } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal } from "../subsystem.ts";
import { Seat } from "../workspace/seats/mod.ts";
import { notASeat } from "../workspace/workspace.ts";

/** The verbs this file answers; the seats area (seats.ts) declares them beside its commands. */
export const CONVERSATION_VERBS = ["more", "seat_range"] as const;

/**
 * The conversation verbs: `more` (a page of a seat's conversation, answered `page`) and
 * `seat_range` (numbered frames for a client that read a gap, answered `seat_frames`). spec:
 * What a client sends > more, seat_range; What a client receives > page, seat_frames. A page or
 * a range the server cannot answer is refused by an `error` naming the verb and the seat (spec:
 * "An error naming more means ask again"; "An error naming seat_range means read the seat
 * again"), never answered empty.
 */
export function conversationVerbs(host: Host) {
  return {
    more: async (m: ClientMessageOf<"more">, peer: Peer) => {
      const seat = seatFor(host, "more", m.conversation);
      // A held batch goes out before any answer, as the original forge's connection orders it.
      host.workspace.stream.flush(m.conversation);
      const page = await seat.more(m.before ?? null, m.turns);
      peer.send({
        kind: "page",
        conversation: m.conversation,
        turns: page.turns,
        cursor: page.cursor,
        ...(page.cron_names ? { cron_names: page.cron_names } : {}),
      });
    },
    seat_range: async (m: ClientMessageOf<"seat_range">, peer: Peer) => {
      const seat = seatFor(host, "seat_range", m.slot);
      const frames = await seat.range(m.epoch, m.from, m.to);
      peer.send({ kind: "seat_frames", slot: m.slot, epoch: m.epoch, frames });
    },
  };
}

/** The seat a verb addresses; refused naming the verb when no session ever ran there. */
function seatFor(host: Host, what: "more" | "seat_range", slot: Slot): Seat {
  const seat = host.workspace.seat(slot);
  if (seat instanceof Seat) return seat;
  const why = seat
    ? `${slotName(slot)}: the seat has no session and knows no earlier one`
    : notASeat(slot);
  throw new Refusal(what, `${what}: ${why}`, slot);
}
