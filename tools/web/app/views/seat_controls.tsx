import { useState } from "preact/hooks";
import type { SeatModel } from "../model/seat.ts";
import { type ControlId, type SeatControl, seatControls } from "../model/seat_controls.ts";
import { useApp, useForge } from "./use.ts";

/**
 * The presses that move the seat's session (model/seat_controls.ts): `start` draws Start or
 * Restart in the header, `ends` draws Stop and New conversation, each asking once before it is
 * sent. Nothing is offered while the forge is unreachable (the press could not be sent).
 */
export function SeatControls(props: { seat: SeatModel; lifecycle: string | null; which: Which }) {
  const s = useApp();
  const c = useForge();
  const [asking, setAsking] = useState<ControlId | null>(null);
  const { seat, lifecycle } = props;
  const cwd = seat.record?.state.scan_cwd ?? null;
  const controls = seatControls(seat.slot, lifecycle, cwd).filter((x) =>
    props.which === "start" ? x.id === "start" : x.id !== "start"
  );
  if (controls.length === 0 || s.link !== "open") return null;
  const send = (control: SeatControl) => {
    setAsking(null);
    // A stop is heard back as fleet news: `releasing` when it begins, `released` once the CLI
    // is gone, each re-reading the home (net/client.ts).
    c.send({ kind: "command", command: control.command });
  };
  return (
    <span class="seat-session">
      {controls.map((x) =>
        asking === x.id
          ? (
            <span class="asking" role="group" key={x.id} data-testid={`seat-${x.id}-asking`}>
              {x.confirm}
              <button type="button" data-testid={`seat-${x.id}-yes`} onClick={() => send(x)}>
                {x.label}
              </button>
              <button type="button" onClick={() => setAsking(null)}>Keep it</button>
            </span>
          )
          : (
            <button
              type="button"
              key={x.id}
              data-testid={`seat-${x.id}`}
              onClick={() => x.confirm ? setAsking(x.id) : send(x)}
            >
              {x.label}
            </button>
          )
      )}
    </span>
  );
}

type Which = "start" | "ends";

/** Why the seat failed, under its header: the record's words, else the home row's. */
export function SeatFailure(props: { seat: SeatModel; lifecycle: string | null; reason?: string }) {
  const why = props.seat.failure ?? (props.lifecycle === "Failed" ? props.reason : null);
  if (!why) return null;
  return (
    <div class="notice failure" role="alert" data-testid="seat-failure">
      <b>Failed</b>: {why}
    </div>
  );
}
