import type { Wire } from "../../../../protocol/mod.ts";

type Obj = Record<string, Wire>;

/**
 * A seat's marks, drawn from its home row: lifecycle, needs-you (a parked ask), failure (why it
 * failed), background work, and unseen (its last turn finished while nobody was showing it).
 * spec: home > agents, unseen; showing spends them.
 */
export function Marks(props: { agent: Obj; unseen: Obj[] }) {
  const a = props.agent;
  const slot = a.slot as Obj;
  const unseen = props.unseen.some((u) =>
    u.org === slot.org && u.project === slot.project && u.label === slot.label
  );
  const lifecycle = String(a.lifecycle ?? "");
  return (
    <span class="marks">
      <span
        class={`lifecycle ${lifecycle.toLowerCase()}`}
        data-mark="lifecycle"
      >
        {lifecycle}
      </span>
      {a.pending !== null && a.pending !== undefined && (
        <span
          class="mark needs-you"
          data-mark="needs-you"
          title={`waiting on you: ${a.pending}${
            Number(a.pending_depth) > 0 ? ` (+${a.pending_depth})` : ""
          }`}
        >
          ◆
        </span>
      )}
      {a.reason !== null && a.reason !== undefined && (
        <span class="mark failure" data-mark="failure" title={String(a.reason)}>
          ✕
        </span>
      )}
      {a.has_background_work === true && (
        <span
          class="mark background"
          data-mark="background"
          title="background work"
        >
          ⟳
        </span>
      )}
      {unseen && (
        <span
          class="mark unseen"
          data-mark="unseen"
          title="finished while away"
        >
          ●
        </span>
      )}
    </span>
  );
}
