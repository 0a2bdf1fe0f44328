/**
 * Test support: a Host for the review subsystem alone, over a real Workspace holding one seat,
 * real attendance read off fake connections (each a real Subscriptions count), and the updates
 * it emits kept for the test to wait on.
 */
import type { SessionUpdate, Slot } from "../protocol/mod.ts";
import { SeatAttendance } from "../server/attendance.ts";
import type { ForgeConfig } from "../server/config/types.ts";
import { Subscriptions } from "../server/fanout.ts";
import { memoryLogger } from "../server/log.ts";
import { StateKeeper } from "../server/state/keeper.ts";
import type { Host } from "../server/subsystem.ts";
import { type SeatInfo, Workspace } from "../server/workspace/workspace.ts";

/** One fake connection: what attendance reads of it. */
export interface FakeViewer {
  answering: boolean;
  showing: Slot | null;
  subs: Subscriptions;
}

export function reviewHost(
  slot: Slot,
  cwd: string,
  stateDir: string,
  session: () => string | null,
  opts: { projects?: string[]; connections?: boolean } = {},
) {
  const updates: SessionUpdate[] = [];
  let told: (() => void) | null = null;
  const log = memoryLogger();
  const config = {
    documents: { max_size_mib: 4 },
    orgs: [{
      name: slot.org,
      projects: (opts.projects ?? [slot.project]).map((name) => ({
        org: slot.org,
        name,
        path: cwd,
        document_roots: [],
      })),
    }],
  } as unknown as ForgeConfig;
  const workspace = new Workspace(log, () => config);
  const seat: SeatInfo = {
    slot,
    cwd,
    project: config.orgs[0].projects[0],
    sessionId: session,
  };
  workspace.registerSeat(seat);
  const open = new Set<FakeViewer>();
  const attendance = new SeatAttendance(() => open, (error) => {
    throw error;
  });
  const host: Host = {
    log,
    state: new StateKeeper(log),
    config: () => config,
    stateDir,
    workspace,
    emit: (u) => {
      updates.push(u);
      told?.();
    },
    asks: {} as Host["asks"],
    deliver: () => Promise.reject(new Error("no deliveries here")),
    toolsChanged: () => {},
    ...(opts.connections ? { attendance } : {}),
  };
  /** Resolves on the next update named `name` (the watch's push after a write). */
  const next = (name: string) =>
    new Promise<SessionUpdate>((resolve) => {
      const look = () => {
        const u = updates.find((u) => u.name === name);
        if (u) {
          updates.length = 0;
          told = null;
          resolve(u);
        }
      };
      told = look;
      look();
    });
  /** A connection opening, as the socket's accept makes one. */
  const connect = (): FakeViewer => {
    const v = { answering: false, showing: null, subs: new Subscriptions() };
    open.add(v);
    return v;
  };
  /** An unsubscribe, as dispatch handles it: the count drops and attendance hears of it. */
  const unsubscribe = (v: FakeViewer, s: Slot = slot) => {
    v.subs.remove({ session: s });
    attendance.changed();
  };
  /** A connection ending, as accept's close handler does: out of the table, then news. */
  const close = (v: FakeViewer) => {
    open.delete(v);
    attendance.changed();
  };
  /** The review watch records of this host's log, as `started` / `stopped:<why>`. */
  const watchLog = () =>
    log.records.flatMap((r) =>
      r.event === "review_watch_started"
        ? ["started"]
        : r.event === "review_watch_stopped"
        ? [`stopped:${(r as { why?: string }).why}`]
        : []
    );
  return { host, log, next, workspace, seat, connect, unsubscribe, close, watchLog, updates };
}
