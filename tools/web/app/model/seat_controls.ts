import type { Slot, WireCommand } from "../../../../protocol/mod.ts";
import { commandWire } from "../net/commands.ts";

/** The presses that move a seat's session. */
export type ControlId = "start" | "stop" | "new";

/** One press a seat offers, with the command it sends (built against protocol/'s COMMANDS). */
export interface SeatControl {
  id: ControlId;
  /** The button's words. */
  label: string;
  /** Asked before it is sent, for a press that ends a session; null: sent at once. */
  confirm: string | null;
  command: WireCommand;
}

/**
 * The lifecycles with a live session to stop or replace. Not Spawning: a start that does not
 * answer is ended by forge's own bound, and a close while the CLI is still answering its
 * `initialize` is lost under the start.
 */
const LIVE = new Set(["Idle", "Running", "Attention", "AuthRequired", "LoggedOut"]);

/**
 * What a seat's page offers for its lifecycle (home > agents > lifecycle): Start for a sleeping
 * seat and Restart for a failed one; Stop (close_session) and a New conversation (new_session in
 * the seat's own directory, `state.scan_cwd`) for a live one. The
 * two that end a session ask first. `cwd` is null until the seat's record is read.
 */
export function seatControls(slot: Slot, lifecycle: string | null, cwd: string | null) {
  const out: SeatControl[] = [];
  if (lifecycle === "Sleeping" || lifecycle === "Failed") out.push(startControl(slot, lifecycle));
  if (lifecycle !== null && LIVE.has(lifecycle)) {
    out.push({
      id: "stop",
      label: "Stop",
      confirm: "End this seat's session?",
      command: commandWire("close_session", { session_key: slot }),
    });
  }
  if (cwd !== null && lifecycle !== null && LIVE.has(lifecycle)) {
    out.push({
      id: "new",
      label: "New conversation",
      confirm: "End this conversation and start a new one?",
      command: commandWire("new_session", { key: slot, cwd, launch_settings: {} }),
    });
  }
  return out;
}

/**
 * Start (a sleeping seat) or Restart (a failed one): a lead is its project's `spawn_project`, a
 * worker `spawn_session` with its own label as the role (protocol/command.ts SpawnRole).
 */
export function startControl(slot: Slot, lifecycle: string): SeatControl {
  const command = slot.label === "lead"
    ? commandWire("spawn_project", { project_name: slot.project, launch_settings: {} })
    : commandWire("spawn_session", {
      key: slot,
      role: { worker: { label: slot.label } },
      launch_settings: {},
    });
  return {
    id: "start",
    label: lifecycle === "Failed" ? "Restart" : "Start",
    confirm: null,
    command,
  };
}

/**
 * The lifecycle a seat's page heads with. The seat's own stream is fresher than the home row a
 * read ago, so an ask or a turn in flight says so at once (the home's rule: asks first, then the
 * turn), except over a row that reads LoggedOut: a turn on a seat with no credential ends "Not
 * logged in" at once, and home's rule puts LoggedOut above both (home > agents > lifecycle).
 */
export function headLifecycle(
  row: string | null,
  seat: { asking: boolean; turnInFlight: boolean },
): string | null {
  if (row === "LoggedOut") return row;
  return seat.asking ? "Attention" : seat.turnInFlight ? "Running" : row;
}
