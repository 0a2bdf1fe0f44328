import type {
  AgentRow,
  CatalogRow,
  HomePart,
  HomeProject,
  HomeSnapshot,
  WorkState,
} from "../../protocol/mod.ts";
import type { Board } from "../board/mod.ts";
import type { BuildInfo } from "../build_info.ts";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import { fleetRow } from "./fleet_row.ts";
import { CATALOG_CAP, projectCatalog } from "./project_catalog.ts";
import { type Host, subjectArea } from "../subsystem.ts";
import { readWork } from "../workspace/work.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";

/** Facts the home read needs that are measured once at boot. */
export interface HomeFacts {
  build: BuildInfo;
  /** The running board, whose tasks the fleet row counts; null before it starts. */
  board: () => Board | null;
  /** The running subsystems' own home fields (the vault's rows); absent in a bare registry. */
  subsystemFields?: () => Promise<HomePart>;
}

/**
 * The home subject: the fleet. spec: What a subject carries > home. Seats register their rows
 * with the workspace; a declared project whose lead nobody started answers as Sleeping.
 */
export function homeArea(facts: HomeFacts) {
  return subjectArea(
    "home",
    "the fleet: projects, seats, accounts and app-level facts",
    "home",
    (host) => homeSnapshot(host, facts),
  );
}

export async function homeSnapshot(host: Host, facts: HomeFacts): Promise<HomeSnapshot> {
  const config = host.config();
  const ws = host.workspace;
  const projects = ws.projects();
  const held = new Map(
    ws.seats().map((s) => [`${s.slot.org}/${s.slot.project}/${s.slot.label}`, s]),
  );
  // A seat working in a project's tree keeps its glance fresh; a quiet tree's is reused.
  const live = (p: ProjectConfig) =>
    (held.get(`${p.org}/${p.name}/${LEAD_LABEL}`)?.sessionId() ?? null) !== null;
  const cap = catalogRows(projects.length);
  // One glance a project: its row and its sleeping lead's row carry the same tree's work (a
  // project whose lead nobody holds is not live), and each glance stats the tree.
  const works = projects.map((p) => readWork(p.path, { live: live(p) }));
  const projectRows = await Promise.all(projects.map(async (p, i) => ({
    project: projectIdentity(config, p, await projectCatalog(config, p, { cap, live: live(p) })),
    work: await works[i],
    // spec: home > projects: the account the row's next seat would bind, and its state.
    ...(ws.gateway?.projectRow(p) ?? { would_bind: false, chip: null }),
  })));
  const agents: AgentRow[] = [];
  for (const [i, p] of projects.entries()) {
    const name = `${p.org}/${p.name}/${LEAD_LABEL}`;
    if (!held.has(name)) agents.push(sleepingRow(p, await works[i]));
  }
  for (const seat of held.values()) {
    agents.push(seat.homeRow ? await seat.homeRow() : sleepingRow(seat.project, null));
  }
  const dictate = config.areas.dictate ?? {};
  const tts = config.areas.tts ?? {};
  const own = (await facts.subsystemFields?.()) ?? {};
  return {
    projects: projectRows,
    fleet: await Promise.all(projects.map(async (p) => {
      const mine = [...held.values()].filter((s) =>
        s.project.name === p.name && s.project.org === p.org && s.sessionId() !== null
      );
      // spec: home > fleet: the queue, the rows waiting on the user, the total and the misses
      // are counted from the project's tasks.
      const counts = await facts.board()?.fleet(p) ??
        { queue: { ready: 0, unowned: 0 }, waiting_on_user: 0, rows: 0, misses: [] };
      return fleetRow(p, mine.map((s) => s.slot.label), counts);
    })),
    agents,
    unseen: ws.unseen(),
    accounts: ws.gateway?.wire() ?? null,
    // The connectors subsystem lays its own over this when it runs.
    connectors: {
      gotify: { connected: false, configured: false, error: null },
      slack: { connected_workspaces: [], load_failed: false, load_error: null },
    },
    biometric: { devices: [] },
    vault: null,
    // The original's shape with dictation off: an empty snapshot and no device;
    // the dictate subsystem's own home field replaces this when it runs.
    dictate: {
      enabled: dictate.enabled === true,
      snapshot: { models: [], failure: null },
      models_dir: (dictate.models_dir as string | null) ?? null,
      device: null,
    },
    voice: { enabled: tts.enabled === true, models_dir: (tts.models_dir as string | null) ?? null },
    // The cli_version area lays the versions it read over this (server/areas/cli_version.ts).
    cli_version: { installed: null, latest: null },
    forge_version: facts.build.forge_version,
    forge_version_short: facts.build.forge_version_short,
    boot_id: ws.bootId,
    service_status: null,
    // The original's client reads a string here; the kind rides the update.
    fatal_error: ws.fatalError?.message ?? null,
    // forge's extension (protocol/notify.ts); the notify subsystem lays its own over this.
    notify: notifyOff(config.areas.notify?.enabled === true),
    ...own,
  };
}

/**
 * The catalog rows home carries for each project: CATALOG_CAP while the projects are few, and
 * HOME_CATALOG_ROWS shared among them when they are many (each keeps its newest at least), so a
 * home of 200 projects stays a couple of hundred kilobytes and not megabytes of session rows.
 */
export function catalogRows(projects: number): number {
  return Math.max(1, Math.min(CATALOG_CAP, Math.floor(HOME_CATALOG_ROWS / Math.max(1, projects))));
}

/** The catalog rows a home carries over all its projects, once they are many. */
export const HOME_CATALOG_ROWS = 200;

function projectIdentity(
  config: ForgeConfig,
  p: ProjectConfig,
  sessions: CatalogRow[],
): HomeProject["project"] {
  const org = config.orgs.find((o) => o.name === p.org);
  return {
    key: `${p.org}/${p.name}`,
    name: p.name,
    org: p.org,
    path: p.path,
    display_path: p.display_path,
    accounts: org?.accounts ?? [],
    fallback_accounts: org?.fallback_accounts ?? [],
    has_model: p.model !== null,
    sessions,
  };
}

function sleepingRow(p: ProjectConfig, work: WorkState | null): AgentRow {
  return {
    slot: { org: p.org, project: p.name, label: LEAD_LABEL },
    label: LEAD_LABEL,
    lifecycle: "Sleeping",
    has_background_work: false,
    pending: null,
    pending_depth: 0,
    pending_seq: null,
    last_activity: null,
    reason: null,
    failed_turn: null,
    tree: null,
    work,
  };
}

/**
 * home's `notify` while the subsystem is not running: off by config, or on in the config and
 * failed to start (the log's `subsystem_failed` says why).
 */
function notifyOff(configured: boolean): HomeSnapshot["notify"] {
  const why = configured
    ? "the notify subsystem did not start; forge.log's subsystem_failed says why"
    : "pushes are off ([notify] enabled is false)";
  const off = { state: "off" as const, why };
  return {
    enabled: false,
    channels: { ntfy: off, gotify: off, webpush: off },
    vapid_public_key: null,
    subscriptions: 0,
  };
}
