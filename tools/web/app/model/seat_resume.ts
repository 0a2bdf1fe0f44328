import {
  type CatalogRow,
  type HomeProject,
  type Slot,
  type WireCommand,
  wireTimeMs,
} from "../../../../protocol/mod.ts";
import { commandWire } from "../net/commands.ts";

/**
 * The earlier conversations a seat can take up again: its project's transcripts as the home
 * lists them (home > projects > project.sessions), newest first, the one the seat holds now left
 * out. What to call each is list_sessions' answer, asked for when the list opens.
 * The catalog is of the project's own directory, which is the lead's: a worker runs in its own
 * worktree, whose transcripts it does not list, so a worker is offered none.
 */
export function earlierSessions(
  projects: readonly HomeProject[],
  slot: Slot,
  current: string | null,
): CatalogRow[] {
  if (slot.label !== "lead") return [];
  const project = projects.find((p) =>
    p.project.org === slot.org && p.project.name === slot.project
  );
  const rows = (project?.project.sessions ?? []).filter((r) => r.session_id !== current);
  return rows.sort((a, b) => wireTimeMs(b.last_activity) - wireTimeMs(a.last_activity));
}

/** Puts an earlier session on the seat, in the directory it ran in (spec: resume_session). */
export function resumeCommand(slot: Slot, row: CatalogRow): WireCommand {
  return commandWire("resume_session", {
    key: slot,
    session_id: row.session_id,
    cwd: row.cwd,
    launch_settings: {},
  });
}
