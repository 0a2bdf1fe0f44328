import type { CliFrame, Slot } from "../../../protocol/mod.ts";
import type { SeatEnv } from "./env.ts";
import type { OccupantReads } from "./reads.ts";
import { capToolRecord } from "./records.ts";
import type { SeatEmitter } from "./seat_emit.ts";
import type { SeatState } from "./seat_state.ts";

/** What telling a frame touches of its seat. */
export interface FrameParts {
  slot: Slot;
  env: SeatEnv;
  /** The seat's emit path (seat_emit.ts). */
  emitter: SeatEmitter;
}

/** The occupant a frame came from, as it stands when the frame arrives. */
export interface FrameOccupant {
  state: SeatState;
  reads: OccupantReads | null;
}

/**
 * Tells one CLI frame: `chat_appended` (its tool record bounded by `server.tool_record_cap_kb`),
 * then what it implies for the occupant's state (seat_state.ts). A `result` marks the seat unseen
 * where no page shows it, else asks for its context again; a compaction asks again; an `init` is
 * read for its MCP servers (reads.ts). Throws what the state's reading throws.
 */
export function tellFrame(frame: CliFrame, seat: FrameParts, occupant: FrameOccupant): void {
  const capBytes = seat.env.config().server.tool_record_cap_kb * 1024;
  seat.emitter.emit("chat_appended", { msg: capToolRecord(frame, capBytes) });
  seat.emitter.derived(occupant.state.apply(frame));
  if (frame.type === "result") {
    // spec: home > unseen; session > header (context asked again where a page shows it).
    if (seat.env.watchers.showing(seat.slot) === 0) {
      seat.env.workspace.markUnseen(seat.slot);
    } else occupant.reads?.probe(false);
  }
  if (frame.type !== "system") return;
  if (frame.subtype === "compact_boundary") occupant.reads?.probe(true);
  if (frame.subtype === "init") occupant.reads?.sawInit(frame);
}
