import type { SessionUpdate, Slot } from "../protocol/mod.ts";
import type { ForgeConfig, ProjectConfig } from "../server/config/types.ts";
import { memoryLogger } from "../server/log.ts";
import { StateKeeper } from "../server/state/keeper.ts";
import type { Delivery, Host, ToolCall } from "../server/subsystem.ts";
import { Workspace } from "../server/workspace/workspace.ts";
import { Board } from "../server/board/board.ts";
import type { TickClock } from "../server/board/cron.ts";

/** A clock the test moves by hand; armed timers are recorded, never run by themselves. */
export class HandClock implements TickClock {
  armed: { fn: () => void; at: number }[] = [];
  /** How many timers were ever armed: a tick that spins arms without end. */
  sets = 0;
  /** When this "process" came up: a restart (`reopen`) moves it to the clock's now. */
  up: number;
  constructor(public t: number) {
    this.up = t;
  }
  now(): number {
    return this.t;
  }
  upSince(): number {
    return this.up;
  }
  set(fn: () => void, ms: number): unknown {
    this.sets++;
    const timer = { fn, at: this.t + ms };
    this.armed.push(timer);
    return timer;
  }
  clear(id: unknown): void {
    this.armed = this.armed.filter((x) => x !== id);
  }
}

/**
 * Runs the cron tick's own timers for `ms` of the hand clock, earliest first, each tick awaited
 * before the next (the frame, not time); answers how many woke. The clock ends `ms` later.
 */
export async function runTimers(
  clock: HandClock,
  crons: { settled(): Promise<void> },
  ms: number,
): Promise<number> {
  const end = clock.t + ms;
  let woke = 0;
  for (;;) {
    const next = [...clock.armed].sort((a, b) => a.at - b.at)[0];
    if (!next || next.at > end) break;
    clock.armed = clock.armed.filter((x) => x !== next);
    clock.t = Math.max(clock.t, next.at);
    next.fn();
    woke++;
    await crons.settled();
  }
  clock.t = end;
  return woke;
}

export function project(name: string, org = "Acme"): ProjectConfig {
  return {
    org,
    name,
    display_path: `/srv/${name}`,
    path: `/srv/${name}`,
    auto_start: false,
    model: null,
    permission_mode: "default",
    effort: null,
    max_workers: 2,
    env: {},
    env_file: null,
    document_roots: [],
    browser_profile: null,
  };
}

export interface BoardWorld {
  host: Host;
  /** The host's log, its records kept. */
  log: ReturnType<typeof memoryLogger>;
  board: Board;
  clock: HandClock;
  stateDir: string;
  emitted: SessionUpdate[];
  delivered: { slot: Slot; delivery: Delivery }[];
  /** When set, the next deliveries reject with this sentence. */
  failDeliveries: string | null;
  /** Prompts already in the lead's transcript: a `once` delivery of one answers `landed`. */
  landed: Set<string>;
  /** A tool call from a seat of the project. */
  call(projectName: string, label?: string): ToolCall;
  /** Opens a second board on the same state dir: what a restart reads. */
  reopen(): Promise<Board>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A board over a temp state dir with a host whose `deliver` records what it was handed (the real
 * one is the agent-tools bridge's): the unit tier for the store, the commands and the tools.
 */
export async function boardWorld(projects = [project("alpha")], t0 = Date.UTC(2026, 11, 2, 12)) {
  const stateDir = await Deno.makeTempDir({ prefix: "forge-board-" });
  const config = { orgs: [{ name: "Acme", projects }] } as unknown as ForgeConfig;
  const log = memoryLogger();
  const workspace = new Workspace(log, () => config);
  const clock = new HandClock(t0);
  const emitted: SessionUpdate[] = [];
  const delivered: BoardWorld["delivered"] = [];
  const world = {} as BoardWorld;
  const host: Host = {
    log,
    config: () => config,
    stateDir,
    state: new StateKeeper(log),
    workspace,
    emit: (u) => void emitted.push(u),
    asks: {
      park: () => {
        throw new Error("no asks in the board's tests");
      },
      answer: () => {},
      restamp: () => {},
      list: () => [],
    },
    deliver: (slot, delivery) => {
      if (world.failDeliveries) return Promise.reject(new Error(world.failDeliveries));
      delivered.push({ slot, delivery });
      const landed = delivery.once && world.landed.has(delivery.uuid!);
      return Promise.resolve(landed ? "landed" : "sent");
    },
    toolsChanged: () => {},
  };
  // A restart reads through a keeper of its own, as a new process would.
  const open = (restart = false) => {
    if (restart) clock.up = clock.t;
    return Board.open(
      restart ? { ...host, state: new StateKeeper(log) } : host,
      clock,
      (entry, text, uuid, once) =>
        host.deliver({ org: entry.org, project: entry.project, label: "lead" }, {
          text,
          source: "cron",
          uuid,
          once,
        }),
    );
  };
  const board = await open();
  Object.assign(world, {
    host,
    log,
    board,
    clock,
    stateDir,
    emitted,
    delivered,
    failDeliveries: null,
    landed: new Set<string>(),
    call: (projectName: string, label = "lead"): ToolCall => {
      const p = projects.find((x) => x.name === projectName)!;
      return {
        seat: {
          slot: { org: p.org, project: p.name, label },
          project: p,
          cwd: p.path,
          sessionId: () => "s-1",
        },
        role: label === "lead" ? "lead" : "worker",
        toolUseId: null,
        signal: new AbortController().signal,
      };
    },
    reopen: () => open(true),
    async [Symbol.asyncDispose]() {
      await board.crons.stop();
      await Deno.remove(stateDir, { recursive: true });
    },
  });
  return world;
}
