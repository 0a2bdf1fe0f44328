import { type AgentRow, sameSlot, type Slot } from "../../../../protocol/mod.ts";
import type { z } from "zod";

type Agent = z.infer<typeof AgentRow>;

/**
 * A seat's marks, drawn from its home row: lifecycle, needs-you (a parked ask), failure (why it
 * failed), background work, and unseen (its last turn finished while nobody was showing it).
 * spec: home > agents, unseen; showing spends them.
 */
export function Marks(props: { agent: Agent; unseen: Slot[] }) {
  const a = props.agent;
  const unseen = props.unseen.some((u) => sameSlot(u, a.slot));
  return (
    <span class="marks">
      <span class={`lifecycle ${a.lifecycle.toLowerCase()}`} data-mark="lifecycle">
        {a.lifecycle}
      </span>
      {a.pending !== null && (
        <span
          class="mark needs-you"
          data-mark="needs-you"
          title={`waiting on you: ${a.pending}${
            a.pending_depth > 0 ? ` (+${a.pending_depth})` : ""
          }`}
        >
          ◆
        </span>
      )}
      {a.reason !== null && (
        <span class="mark failure" data-mark="failure" title={a.reason}>
          ✕
        </span>
      )}
      {a.has_background_work && (
        <span class="mark background" data-mark="background" title="background work">⟳</span>
      )}
      {unseen && <span class="mark unseen" data-mark="unseen" title="finished while away">●</span>}
    </span>
  );
}

/** A seat's name as the page's addresses spell it. */
export const seatName = (slot: Slot) => `${slot.org}/${slot.project}/${slot.label}`;
