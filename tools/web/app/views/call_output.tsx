import type { Slot } from "../../../../protocol/mod.ts";
import type { SeatModel } from "../model/seat.ts";
import { client, useApp } from "./use.ts";

/**
 * Whether a call streams its output to a file forge can read: a backgrounded call (its input
 * says so), one of the seat's live tasks, or a monitor. Other calls have their result on the card.
 */
export function streamsOutput(seat: SeatModel, call: { id: string; input: unknown }): boolean {
  const input = call.input;
  const backgrounded = typeof input === "object" && input !== null &&
    (input as Record<string, unknown>).run_in_background === true;
  return backgrounded ||
    seat.backgroundTasks.some((t) => t.tool_use_id === call.id) ||
    seat.panels.monitors.some((m) => m.tool_use_id === call.id);
}

/** Asks for a call's newest output lines; a page with no socket says so instead of waiting. */
function ask(seat: SeatModel, key: Slot, callId: string): void {
  const c = client();
  seat.panels.asked(callId);
  if (!c.command("read_call_output", { key, call_id: callId })) {
    seat.panels.outputs = new Map(seat.panels.outputs).set(callId, {
      state: "none",
      words: "not asked: the connection to forge is down",
    });
  }
  c.store.changed();
}

/**
 * A call's own output, on its card: the newest lines of the file the CLI streams it to, read on
 * a press (again on the next), while it runs and after it ended, or forge's words for why there
 * are none. spec: What a client sends > read_call_output.
 */
export function CallOutputDoor(props: { callId: string }) {
  const s = useApp();
  const seat = s.seat;
  if (!seat) return null;
  const out = seat.panels.outputs.get(props.callId);
  return (
    <div class="call-output" data-testid="call-output">
      <button
        type="button"
        data-testid="show-output"
        disabled={out?.state === "asked"}
        onClick={() => ask(seat, seat.slot, props.callId)}
      >
        {out ? "Read the output again" : "Show output"}
      </button>
      {out?.state === "asked" && <span class="muted">reading…</span>}
      {out?.state === "none" && <span class="muted" data-testid="output-none">{out.words}</span>}
      {out?.state === "read" && (
        <>
          <span class="muted">
            {out.lines.length} line{out.lines.length === 1 ? "" : "s"}
            {out.truncated ? ", the newest only" : ""}
          </span>
          <pre class="tool-out" data-testid="output-lines">{out.lines.join("\n")}</pre>
        </>
      )}
    </div>
  );
}
