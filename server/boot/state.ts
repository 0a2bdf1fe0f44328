import { SeatAttendance } from "../attendance.ts";
import type { Connection } from "../connection.ts";
import { IdleCollector } from "../idle_gc.ts";
import { StateKeeper, sweepTemps } from "../state/keeper.ts";
import { StateOwner } from "../state/owner.ts";
import type { ConfigPhase } from "./config.ts";

/** What the state phase leaves: the state dir on disk and the live tables later phases share. */
export interface StatePhase {
  stateDir: string;
  /** This forge's hold on the state dir: one forge to a dir (state/owner.ts). */
  owner: StateOwner;
  /** The one keeper every state file is written and read through (server/state/). */
  keeper: StateKeeper;
  /** The open connections by id: the socket phase fills it, the seats and fan-out read it. */
  connections: Map<number, Connection>;
  attendance: SeatAttendance;
  idle: IdleCollector;
}

/**
 * Phase 2, state: `<config dir>/state` made (every durable file lives under it) and held by this
 * forge alone, the keeper every state file goes through, with a crash's temp files swept before
 * any store reads, the table of open connections, who is looking at which seat, and the
 * collector that hands memory back after a burst of client traffic (idle_gc.ts).
 */
export async function statePhase({ configDir, log }: ConfigPhase): Promise<StatePhase> {
  const stateDir = `${configDir}/state`;
  await Deno.mkdir(stateDir, { recursive: true });
  // Before anything is swept or read: a second forge over this dir refuses here.
  const owner = await StateOwner.take(stateDir);
  const keeper = new StateKeeper(log);
  await sweepTemps(stateDir, log, [`${stateDir}/worktrees`, `${stateDir}/browser`]);
  const connections = new Map<number, Connection>();
  const attendance = new SeatAttendance(
    () => connections.values(),
    (error) => log.warn("attendance_listener_failed", { error }),
  );
  const idle = new IdleCollector({
    quietMs: 2_000,
    minMessages: 1_000,
    minBytes: 16 * 1024 * 1024,
    onCollect: (ms) => log.debug("idle_gc", { ms: Math.round(ms) }),
  });
  return { stateDir, owner, keeper, connections, attendance, idle };
}
