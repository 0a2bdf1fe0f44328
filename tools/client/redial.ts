import { type Clock, MONOTONIC } from "../../server/clock.ts";
import type { ConnectFailed, ConnectionClosed } from "./errors.ts";

/**
 * How a client that lost forge dials it again (`connect(url, {reconnect})`). Each wait doubles
 * from `minMs` to the `maxMs` ceiling and is scaled by a random factor within `jitter` of 1, so a
 * fleet of clients a restart dropped at once does not redial in step. `tries` failed dials in a
 * row end the client. `clock` and `random` are the machine's unless a test hands in its own.
 */
export interface ReconnectOptions {
  minMs?: number;
  maxMs?: number;
  /** 0.25: each wait is 0.75 to 1.25 times its step. */
  jitter?: number;
  tries?: number;
  /** The quiet after which the client pings (spec: ping: 15 s). */
  quietMs?: number;
  /** How long a ping may go unanswered before the socket is given up: a browser's 65 s, since
   * this client too is handed whole messages only (spec: Reaching it). */
  deadlineMs?: number;
  clock?: Clock;
  random?: () => number;
}

export type RedialPlan = Required<ReconnectOptions>;

/** What the caller hears of the link (`onLink`). */
export type LinkEvent =
  /** The socket dropped, or a dial failed (`why`); the next dial is `retryInMs` away. */
  | {
    kind: "reconnecting";
    attempt: number;
    retryInMs: number;
    why: ConnectionClosed | ConnectFailed;
  }
  /** A new socket is open and every live follow has been asked for again. */
  | { kind: "reconnected"; attempt: number };

/** The options with every default filled in: the web client's pair (half a second to ten). */
export function redialPlan(o: ReconnectOptions | true): RedialPlan {
  const given = o === true ? {} : o;
  return {
    minMs: given.minMs ?? 500,
    maxMs: given.maxMs ?? 10_000,
    jitter: given.jitter ?? 0.25,
    tries: given.tries ?? Infinity,
    quietMs: given.quietMs ?? 15_000,
    deadlineMs: given.deadlineMs ?? 65_000,
    clock: given.clock ?? MONOTONIC,
    random: given.random ?? Math.random,
  };
}

/** The wait before dial number `attempt` (1 for the first after a drop). */
export function backoffMs(plan: RedialPlan, attempt: number): number {
  const step = Math.min(plan.maxMs, plan.minMs * 2 ** (attempt - 1));
  return Math.round(step * (1 - plan.jitter + 2 * plan.jitter * plan.random()));
}

/**
 * The redial loop: after a drop, waits out the backoff on the plan's clock and dials; a dial
 * nothing answered waits longer and tries again, until `tries` have failed. A dial forge refused
 * with an HTTP status ends it at once. One loop at a time; `stop()` ends it (the client closed).
 */
export class Redialer {
  #attempt = 0;
  #timer: unknown = undefined;
  #stopped = false;

  constructor(
    private readonly plan: RedialPlan,
    private readonly to: {
      /** Opens a new socket (rejects with a ConnectFailed). */
      dial(): Promise<void>;
      event(e: LinkEvent): void;
      /** Every try failed: the client ends with `why`. */
      gaveUp(why: ConnectFailed): void;
    },
  ) {}

  /** The socket dropped: dial again after the first wait. */
  dropped(why: ConnectionClosed): void {
    this.#attempt = 0;
    this.#schedule(why);
  }

  stop(): void {
    this.#stopped = true;
    this.plan.clock.clear(this.#timer);
  }

  #schedule(why: ConnectionClosed | ConnectFailed): void {
    if (this.#stopped) return;
    const attempt = ++this.#attempt;
    const retryInMs = backoffMs(this.plan, attempt);
    this.#timer = this.plan.clock.set(() => this.#try(attempt), retryInMs);
    this.to.event({ kind: "reconnecting", attempt, retryInMs, why });
  }

  async #try(attempt: number): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.to.dial();
    } catch (err) {
      if (this.#stopped) return;
      const failed = err as ConnectFailed;
      // forge answered and refused (an origin no longer allowed): no wait will change that.
      if (attempt >= this.plan.tries || failed.status !== null) return this.to.gaveUp(failed);
      return this.#schedule(failed);
    }
    if (!this.#stopped) this.to.event({ kind: "reconnected", attempt });
  }
}
