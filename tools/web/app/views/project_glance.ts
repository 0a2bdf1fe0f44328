import {
  type AgentRow,
  type FleetRow,
  type HomeProject,
  type UsageSnapshot,
  wireTimeMs,
} from "../../../../protocol/mod.ts";
import { lifecycleWords } from "./lifecycle_words.ts";
import { TOKEN_FIELDS } from "./totals.tsx";

/**
 * A project's summary on the home, in words: its seats by state, the asks waiting on the person,
 * its board's queue, what git says is changed, today's usage and when anything last moved. Each
 * part is null when there is nothing to say, so a phone's row stays short. spec: What a subject
 * carries > home (projects: work, sessions; fleet: live, cap, queue, unowned, waiting_on_user,
 * rows, misses; agents: lifecycle, pending, pending_depth, last_activity) and > usage
 * (by_project).
 */
export interface ProjectGlance {
  /** "2 seats: 1 Running, 1 Idle" */
  seats: string | null;
  /** "3 asks waiting" - every parked ask, the ones behind each front too. */
  asks: string | null;
  /** "2 of 5 tasks ready, 1 unowned, 1 waiting on you" */
  board: string | null;
  /** The workers forge cannot account for, by name. */
  misses: string | null;
  /** "4 files changed on main" */
  changes: string | null;
  /** "today 1,234 tokens $0.01" */
  today: string | null;
  /** "last active 5 min ago" */
  active: string | null;
}

/** Lifecycles in the order a person reads them: what needs them first, what sleeps last. */
const ORDER: readonly AgentRow["lifecycle"][] = [
  "Attention",
  "AuthRequired",
  "LoggedOut",
  "Failed",
  "Running",
  "Spawning",
  "Idle",
  "Sleeping",
];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How long ago, coarse: a glance needs minutes, hours or days, not seconds. */
export function agoWords(then: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - then) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return plural(Math.floor(hours / 24), "day") + " ago";
}

/**
 * The fleet's seats holding a session against how many the project may run, in words a person
 * reads on any screen, a touch one too: "1 seat live, room for 3". Not "1 of 3 seats live",
 * which a newcomer read as three seats, one of them live, over a card listing one seat.
 * spec: home > fleet (`live` counts every seat holding a session, the lead included; `cap` is
 * the workers plus the lead).
 */
export function liveWords(fleet: FleetRow): string {
  return `${plural(fleet.live, "seat")} live, room for ${fleet.cap}`;
}

export function projectGlance(input: {
  project: HomeProject;
  /** This project's own seats' rows. */
  agents: readonly AgentRow[];
  fleet: FleetRow | undefined;
  usage: UsageSnapshot | null;
  now: number;
}): ProjectGlance {
  const { project: p, agents, fleet, usage, now } = input;
  const counts = ORDER.map((l) => [l, agents.filter((a) => a.lifecycle === l).length] as const)
    .filter(([, n]) => n > 0);
  const seats = agents.length === 0
    ? null
    : `${plural(agents.length, "seat")}: ${
      counts.map(([l, n]) => `${n} ${lifecycleWords(l)}`).join(", ")
    }`;
  const parked = agents.reduce((n, a) => n + (a.pending === null ? 0 : 1 + a.pending_depth), 0);
  const asks = parked === 0 ? null : `${plural(parked, "ask")} waiting`;
  const board = fleet && fleet.rows > 0
    ? [
      `${fleet.queue} of ${plural(fleet.rows, "task")} ready`,
      fleet.unowned > 0 ? `${fleet.unowned} unowned` : "",
      fleet.waiting_on_user > 0 ? `${fleet.waiting_on_user} waiting on you` : "",
    ].filter(Boolean).join(", ")
    : null;
  const misses = fleet && fleet.misses.length > 0
    ? `unaccounted: ${fleet.misses.map((m) => m.unaccounted_worker).join(", ")}`
    : null;
  const changed = p.work.changed;
  const changes = changed && changed > 0
    ? `${plural(changed, "file")} changed${p.work.branch ? ` on ${p.work.branch}` : ""}`
    : null;
  // The usage scan names a forge project's row by its path (a cwd inside it counts for it); a
  // name alone could be another org's project of the same name.
  const row = usage?.today.by_project.find((r) => r.forge_project && r.path === p.project.path);
  const tokens = row ? TOKEN_FIELDS.reduce((n, k) => n + row[k], 0) : 0;
  const today = row && tokens > 0
    ? `today ${tokens.toLocaleString("en")} tokens` +
      (usage?.pricing_available ? ` $${row.cost_usd.toFixed(2)}` : "")
    : null;
  const times = [
    ...agents.flatMap((a) => a.last_activity ? [wireTimeMs(a.last_activity)] : []),
    ...p.project.sessions.map((s) => wireTimeMs(s.last_activity)),
  ];
  const active = times.length === 0 ? null : `last active ${agoWords(Math.max(...times), now)}`;
  return { seats, asks, board, misses, changes, today, active };
}
