import { CONTEXTS, DictateOverrideUpdate, STRUCTURES, STYLINGS } from "../../../../protocol/mod.ts";
import type { SeatModel } from "../model/seat.ts";
import { client } from "./use.ts";

const AXES: [string, readonly string[]][] = [
  ["styling", STYLINGS],
  ["structure", STRUCTURES],
  ["context", CONTEXTS],
];

/**
 * The seat's dictation overrides: each axis set here or left to the server's default (the
 * greeting's), echoed back by `dictate_overrides`. spec: greeting > settings.dictate; the
 * original's set_dictate_override and reset_dictate_overrides, and its dictate_overrides update.
 */
export function DictateAxesPicker(props: { seat: SeatModel }) {
  const { seat } = props;
  const defaults = client().state.greeting?.settings.dictate;
  const held: Record<string, string | undefined> = { ...seat.overrides };
  const defaultOf: Record<string, string | undefined> = { ...defaults };
  return (
    <details class="dictate-axes" data-testid="dictate-axes">
      <summary class="muted">dictation style</summary>
      {AXES.map(([axis, options]) => (
        <label key={axis}>
          {axis}{" "}
          <select
            data-testid={`override-${axis}`}
            value={held[axis] ?? ""}
            onChange={(e) => {
              // The select's words narrowed by protocol/'s own schema of the axis's values.
              const update = DictateOverrideUpdate.safeParse({ [axis]: e.currentTarget.value });
              if (update.success) {
                client().command("set_dictate_override", { key: seat.slot, update: update.data });
              }
            }}
          >
            <option value="">default ({defaultOf[axis] ?? "?"})</option>
            {options.map((o) => <option value={o} key={o}>{o}</option>)}
          </select>
        </label>
      ))}
      <button
        type="button"
        data-testid="override-reset"
        onClick={() => client().command("reset_dictate_overrides", { key: seat.slot })}
      >
        Reset
      </button>
    </details>
  );
}
