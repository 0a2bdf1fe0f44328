import { type AgentRow, sameSlot, type Slot } from "../../../../protocol/mod.ts";
import type { z } from "zod";
import { lifecycleWords } from "./lifecycle_words.ts";
import { markWords } from "./mark_words.ts";

type Agent = z.infer<typeof AgentRow>;

/**
 * A seat's marks, drawn from its home row: lifecycle, needs-you (a parked ask), failure (why it
 * failed), background work, and unseen (its last turn finished while nobody was showing it).
 * spec: home > agents, unseen; showing spends them. Each mark's words are its title, its
 * aria-label, and on a touch screen visible beside it.
 */
export function Marks(props: { agent: Agent; unseen: Slot[] }) {
  const a = props.agent;
  const unseen = props.unseen.some((u) => sameSlot(u, a.slot));
  return (
    <span class="marks">
      <span class={`lifecycle ${a.lifecycle.toLowerCase()}`} data-mark="lifecycle">
        {lifecycleWords(a.lifecycle)}
      </span>
      {markWords(a, unseen).map((m) => (
        <span
          class={`mark ${m.mark}`}
          data-mark={m.mark}
          key={m.mark}
          title={m.words}
          aria-label={m.words}
        >
          {m.glyph}
          {/* A touch screen has no hover: the words show beside the glyph (phone.css). */}
          <span class="touch-words" aria-hidden="true">{m.words}</span>
        </span>
      ))}
    </span>
  );
}

/** A seat's name as the page's addresses spell it. */
export const seatName = (slot: Slot) => `${slot.org}/${slot.project}/${slot.label}`;
