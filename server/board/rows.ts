import type { BoardRow, Task } from "../../protocol/mod.ts";

/** What the board counts for a project's fleet row (home > fleet; server/areas/fleet_row.ts). */
export interface FleetCounts {
  queue: { ready: number; unowned: number };
  waiting_on_user: number;
  rows: number;
  misses: { unaccounted_worker: string }[];
}
import { LEAD_LABEL } from "../workspace/workspace.ts";
import { FINISHED } from "./tasks.ts";

/** How long a row may wait before it is marked waiting too long. */
export const WAITING_TOO_LONG_SECS = 60 * 60;
/** How long an in-progress row may sit untouched before it is marked as not moving. */
export const NO_MOVEMENT_SECS = 30 * 60;

/** Seconds worked on a task by `now`: what it banked plus the run in progress. */
export function workedSecs(t: Task, now: number): number {
  const running = t.running_since === null ? 0 : (now - Date.parse(t.running_since)) / 1000;
  return Math.max(0, Math.floor(t.worked_secs + Math.max(0, running)));
}

const secsSince = (at: string, now: number) =>
  Math.max(0, Math.floor((now - Date.parse(at)) / 1000));

/**
 * The board's rows for one project, in board order, each with its worked time, ages, marks,
 * rollup and epic subject. `heldLabels` are the labels of the project's seats the workspace
 * holds: a worker-owned row whose seat is not among them is stale. spec: board > projects.
 * The ages and time-derived marks move with the clock; a page re-reads on its own 30 s beat.
 */
export function boardRows(tasks: Task[], now: number, heldLabels: ReadonlySet<string>): BoardRow[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const children = new Map<string, Task[]>();
  for (const t of tasks) {
    if (t.parent !== null) children.set(t.parent, [...(children.get(t.parent) ?? []), t]);
  }
  return tasks.map((t) => {
    const kids = children.get(t.id) ?? [];
    const done = kids.filter((k) => FINISHED.has(k.status)).length;
    const worked = workedSecs(t, now);
    const waiting = t.status === "waiting" && t.waiting_on !== null ? t.waiting_on : null;
    return {
      task: t,
      marks: {
        in_review: waiting?.verification === true,
        waiting_on_user: waiting !== null && waiting.question !== null,
        stale: t.owner !== null && t.owner !== LEAD_LABEL && !FINISHED.has(t.status) &&
          !heldLabels.has(t.owner),
        waiting_too_long: waiting !== null && secsSince(waiting.since, now) > WAITING_TOO_LONG_SECS,
        overdue: t.estimate?.secs != null && !FINISHED.has(t.status) && worked > t.estimate.secs,
        no_movement: t.status === "in_progress" &&
          secsSince(t.updated_at, now) > NO_MOVEMENT_SECS,
        to_close: kids.length > 0 && done === kids.length && !FINISHED.has(t.status),
      },
      worked_secs: worked,
      updated_secs_ago: secsSince(t.updated_at, now),
      age_secs: secsSince(t.created_at, now),
      rollup: kids.length > 0 ? [done, kids.length] : null,
      epic_subject: t.parent !== null ? byId.get(t.parent)?.subject ?? null : null,
    };
  });
}

/**
 * Home's fleet counts for one project, derived from its tasks (spec: home > fleet): the queue
 * (pending rows ready to take, and those of them nobody owns), the rows waiting on the user (a
 * question or a verdict), the total, and the misses: live workers that own no unfinished row.
 */
export function fleetCounts(
  tasks: Task[],
  liveWorkers: readonly string[],
): FleetCounts {
  const ids = new Set(tasks.map((t) => t.id));
  const hasOpenKids = new Set(
    tasks.filter((t) => t.parent !== null && !FINISHED.has(t.status)).map((t) => t.parent!),
  );
  // Ready: pending, not an epic still waiting on its own rows, under no missing parent.
  const ready = tasks.filter((t) =>
    t.status === "pending" && !hasOpenKids.has(t.id) && (t.parent === null || ids.has(t.parent))
  );
  const owning = new Set(
    tasks.filter((t) => !FINISHED.has(t.status) && t.owner !== null).map((t) => t.owner!),
  );
  return {
    queue: { ready: ready.length, unowned: ready.filter((t) => t.owner === null).length },
    waiting_on_user:
      tasks.filter((t) =>
        t.status === "waiting" && (t.waiting_on?.verification || t.waiting_on?.question != null)
      ).length,
    rows: tasks.length,
    misses: liveWorkers.filter((w) => !owning.has(w)).map((w) => ({ unaccounted_worker: w })),
  };
}
