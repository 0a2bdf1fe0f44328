import {
  type AgentRow,
  type PendingAsk,
  type SessionSnapshot,
  type Slot,
  wireTime,
} from "../../../protocol/mod.ts";
import type { ProjectConfig } from "../../config/types.ts";
import { readWork } from "../work.ts";
import type { Failure, Phase } from "./phase.ts";
import { SeatState } from "./seat_state.ts";

// A seat's rows renderer: what the seat's parts hold, drawn as the wire rows that carry it
// (spec: What a subject carries > home, session). It reads; it moves nothing.

export type Lifecycle =
  | "Sleeping"
  | "Spawning"
  | "Idle"
  | "Running"
  | "Attention"
  | "LoggedOut"
  | "Failed";

/** One ask the seat waits on, as `pending_asks` lists it. */
export type PendingRow = PendingAsk;

/** What the renderer reads of a seat: its parts' readings, named, and nothing it could move. */
export interface RowSource {
  slot: Slot;
  project: ProjectConfig;
  cwd: string;
  phase: Phase;
  /** Whether a process occupies the seat (spawning or live). */
  occupied: boolean;
  /** The occupant's state (a fresh one before any occupant). */
  state: SeatState;
  failure: Failure | null;
  lastActivity: number | null;
  /** The held kinds, then the CLI's own asks, in arrival order. */
  pendingAsks: PendingRow[];
  sessionId: string | null;
}

/** What a seat's lifecycle is read from: its driver's phase, and what its occupant reports. */
export interface LifecycleSource {
  phase: Phase;
  /** An ask waits on the person (the held kinds or the CLI's own). */
  waiting: boolean;
  turnInFlight: boolean;
  /** The occupant's CLI answered `initialize` naming no credential (credential.ts). */
  loggedOut: boolean;
}

/**
 * The seat's lifecycle as home shows it (spec: What a subject carries > home, agents: lifecycle;
 * the catalogue's enum). A live seat whose CLI holds no credential reads `LoggedOut`, whatever
 * else it reports: it is up, but each turn it runs ends "Not logged in", so Idle would mislead.
 */
export function lifecycleOf(s: LifecycleSource): Lifecycle {
  switch (s.phase) {
    case "sleeping":
      return "Sleeping";
    case "spawning":
      return "Spawning";
    case "failed":
      return "Failed";
    default:
      if (s.phase === "live" && s.loggedOut) return "LoggedOut";
      if (s.waiting) return "Attention";
      return s.turnInFlight ? "Running" : "Idle";
  }
}

/** The seat's home `agents` row. `authRequired`: its upstream refused its credential. */
export async function homeRow(
  s: RowSource,
  lifecycle: Lifecycle,
  authRequired: boolean,
): Promise<AgentRow> {
  const front = s.pendingAsks[0];
  const home = Deno.env.get("HOME");
  return {
    slot: s.slot,
    label: s.slot.label,
    // The original's lifecycle `AuthRequired`: a live seat whose upstream refused its credential.
    lifecycle: s.occupied && authRequired ? "AuthRequired" : lifecycle,
    has_background_work: s.state.tasks.hasBackgroundWork,
    pending: front?.kind ?? null,
    pending_depth: front ? s.pendingAsks.length - 1 : 0,
    pending_seq: front?.seq ?? null,
    last_activity: s.lastActivity === null ? null : wireTime(s.lastActivity),
    reason: s.failure?.message ?? null,
    failed_turn: s.state.failedTurnAt === null ? null : wireTime(s.state.failedTurnAt),
    tree: s.cwd === s.project.path
      ? null
      : home && s.cwd.startsWith(`${home}/`)
      ? `~${s.cwd.slice(home.length)}`
      : s.cwd,
    work: await readWork(s.cwd, { live: s.occupied }),
  };
}

/** The conversation of a seat that never held one (a fresh object). spec: session >
 * conversation. */
export function noConversation(): { turns: never[]; compaction_count: number; cursor: null } {
  return { turns: [], compaction_count: 0, cursor: null };
}

/** What the session's fields read beyond the seat: the server's next number, the config. */
export interface SessionContext<C> {
  /** The seat's next frame number (spec: session > header.seq). */
  seq: number;
  /** The conversation's newest page (history.ts), or noConversation(). */
  conversation: C;
  /** Whether a hand-off holds the composer (held.ts). */
  handingOff: boolean;
  /** `[dictate]` as configured: its bind and mode, when set. */
  dictate: Record<string, unknown>;
}

/**
 * The session fields a seat's own parts carry, in the snapshot's order. Drawn from a fresh
 * SeatState and nothing else, they are the session's defaults (`sessionDefaults`): one place
 * says what a seat with no occupant shows.
 */
export function seatSessionFields<C>(s: RowSource, c: SessionContext<C>) {
  const state = s.state;
  const machine: SessionSnapshot["composer"]["machine"] = c.handingOff
    ? "handoff"
    : state.compacting
    ? "compacting"
    : state.turnInFlight && state.machineTurn
    ? "machine"
    : null;
  return {
    // spec: header.session_id is null when no occupant can be named (a failed connection).
    header: { ...state.header(c.seq), session_id: s.sessionId },
    conversation: c.conversation,
    state: { slot: s.slot, scan_cwd: s.cwd, queue: state.queue, voice_listeners: 0 },
    composer: {
      machine,
      compacting: state.compacting,
      sign_in: null,
      bind: typeof c.dictate.bind === "string" ? c.dictate.bind : "right_cmd",
      mode: typeof c.dictate.mode === "string" ? c.dictate.mode : "auto",
      notice: null,
    },
    pending_asks: s.pendingAsks,
    pending_ask: s.pendingAsks[0] ?? null,
    has_dispatches: state.cards.hasDispatches,
    slash_commands: state.slashCommands,
    subagents: state.subagents,
    subagent_instances: state.cards.wire(),
    background_tasks: state.tasks.wire(),
    monitors: state.tasks.monitors(),
    mcp: state.mcp,
    processes: state.processes,
  };
}

/**
 * A session snapshot before any subsystem or seat adds to it: the seat's fields as a seat with
 * no occupant draws them (its project's permission mode in the header, `[dictate]`'s bind and
 * mode in the composer), and the fields other parts of the server own, empty.
 */
export function sessionDefaults(
  seat: { slot: Slot; project: ProjectConfig; cwd: string; sessionId(): string | null },
  seq: number,
  dictate: Record<string, unknown>,
): SessionSnapshot {
  const state = new SeatState();
  state.permissionMode = seat.project.permission_mode;
  const own = seatSessionFields({
    slot: seat.slot,
    project: seat.project,
    cwd: seat.cwd,
    phase: "sleeping",
    occupied: false,
    state,
    failure: null,
    lastActivity: null,
    pendingAsks: [],
    sessionId: seat.sessionId(),
  }, { seq, conversation: noConversation(), handingOff: false, dictate });
  return {
    slot: seat.slot,
    ...own,
    terminal: null,
    work: null,
    git: null,
    pr: null,
    closes: [],
    diff: null,
    file_index: null,
    reviews: null,
  };
}
