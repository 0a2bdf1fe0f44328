import type { FleetRow } from "../../protocol/mod.ts";
import type { FleetCounts } from "../board/rows.ts";
import type { ProjectConfig } from "../config/types.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";

/**
 * Home's fleet row in the original's spelling (protocol/home.ts says where v29 adds):
 * `slots` the project's worker cap, `live_workers` the workers holding a session, `queue` the
 * ready rows; v29's "live against the cap" is `live` (every live seat, the lead too, against
 * `cap` = workers + the lead) and "ready and unowned" adds `unowned`.
 */
export function fleetRow(p: ProjectConfig, liveLabels: string[], counts: FleetCounts): FleetRow {
  return {
    project: p.name,
    slots: p.max_workers,
    live_workers: liveLabels.filter((l) => l !== LEAD_LABEL).length,
    queue: counts.queue.ready,
    unowned: counts.queue.unowned,
    live: liveLabels.length,
    cap: p.max_workers + 1,
    waiting_on_user: counts.waiting_on_user,
    rows: counts.rows,
    misses: counts.misses,
  };
}
