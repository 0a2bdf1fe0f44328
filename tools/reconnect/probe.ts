import type { Clock } from "../../server/clock.ts";

/** spec: ping: every client sends ping after 15 seconds of quiet. */
export const QUIET_MS = 15_000;
/**
 * spec: ping: a browser's deadline is the write bound plus a margin, 65 seconds: it is handed whole
 * messages only, and while the server spends up to 60 seconds writing one frame it cannot answer.
 * The SDK is handed whole messages too, so it keeps the same deadline.
 */
export const BROWSER_DEADLINE_MS = 65_000;

/** The probe's pair and the clock its timers run on (a test hands in one it moves by hand). */
export interface ProbeTiming {
  quietMs: number;
  deadlineMs: number;
  clock: Clock;
}

/**
 * The half-open probe of one socket. spec: The socket > Reaching it ("A client probes too, with
 * ping"); ping. After `quietMs` with no frame it has the link ping; a ping unanswered by any frame
 * within `deadlineMs` calls `expired`, and the link gives the socket up so the ordinary reconnect
 * runs: a half-open socket (a locked phone, a network gone) never delivers a close. A probe
 * already out is neither asked again nor re-armed. One Probe per socket: `stop()` it with its
 * socket. Pure: the clock and the ping are the caller's.
 */
export class Probe {
  #quiet: unknown = undefined;
  #deadline: unknown = undefined;
  #out = false;
  #stopped = false;

  constructor(
    private readonly timing: ProbeTiming,
    private readonly to: {
      /** Sends a ping; false when none went out (not open, or a server too old to answer). */
      ping(): boolean;
      /** The deadline passed with nothing heard: the socket is given up. */
      expired(): void;
    },
  ) {}

  /** Any whole frame answers a probe out and restarts the quiet (spec: ping: any inbound traffic). */
  heard(): void {
    if (this.#stopped) return;
    this.#clearDeadline();
    this.timing.clock.clear(this.#quiet);
    this.#quiet = this.timing.clock.set(() => this.now(), this.timing.quietMs);
  }

  /** Probes at once (a page back from the background); a probe already out keeps its deadline. */
  now(): void {
    if (this.#out || this.#stopped || !this.to.ping()) return;
    this.#out = true;
    this.#deadline = this.timing.clock.set(() => {
      this.stop();
      this.to.expired();
    }, this.timing.deadlineMs);
  }

  stop(): void {
    this.#stopped = true;
    this.timing.clock.clear(this.#quiet);
    this.#clearDeadline();
  }

  #clearDeadline(): void {
    this.timing.clock.clear(this.#deadline);
    this.#deadline = undefined;
    this.#out = false;
  }
}
