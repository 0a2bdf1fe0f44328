import type { Clock } from "../../server/clock.ts";

/**
 * How a client that lost forge waits before dialling again: each wait doubles from `minMs` to the
 * `maxMs` ceiling and is scaled by a random factor within `jitter` of 1, so a fleet of clients a
 * restart dropped at once does not redial in step. spec: The socket > Reaching it ("What a
 * reconnect must do is the client's own rule"): the pair is forge's clients' own, not the wire's.
 */
export interface Backoff {
  minMs: number;
  maxMs: number;
  /** 0.25: each wait is 0.75 to 1.25 times its step. */
  jitter: number;
  /** A draw in [0, 1): the machine's unless a test hands in its own. */
  random: () => number;
}

/** The web client's pair, which the SDK shares: half a second doubling to ten, a quarter's jitter. */
export const BACKOFF: Omit<Backoff, "random"> = { minMs: 500, maxMs: 10_000, jitter: 0.25 };

/** The wait before dial number `attempt` (1 for the first after a drop). */
export function backoffMs(plan: Backoff, attempt: number): number {
  const step = Math.min(plan.maxMs, plan.minMs * 2 ** (attempt - 1));
  return Math.round(step * (1 - plan.jitter + 2 * plan.jitter * plan.random()));
}

/** The redial loop's plan: the backoff, how many failed dials in a row end it, its clock. */
export interface RedialPlan extends Backoff {
  tries: number;
  clock: Clock;
}

/** What the loop asks of its link, and tells it. `Why` is the link's own reason for a failure. */
export interface RedialTo<Why> {
  /** Opens a new socket; rejects with a `Why` when it did not open. */
  dial(): Promise<void>;
  /** The next dial is `retryInMs` away (number `attempt`), after `why`. */
  waiting(attempt: number, retryInMs: number, why: Why): void;
  /** Dial number `attempt` opened (0: one `now()` asked for). */
  opened(attempt: number): void;
  /** `tries` dials failed in a row, or one failed for good: the link ends with `why`. */
  gaveUp(why: Why): void;
  /** Whether a failed dial is final (forge answered and refused): no wait will change it. */
  final?(why: Why): boolean;
}

/**
 * The redial loop: after a drop, waits out the backoff on the plan's clock and dials; a dial that
 * failed waits longer and tries again, until `tries` have failed or one is final. One loop at a
 * time; `now()` cuts a wait short (the network came back); `stop()` ends it. Timers and the
 * socket are the caller's, so the loop runs the same in a page, in Deno and on a test's clock.
 */
export class Redialer<Why> {
  #attempt = 0;
  #timer: unknown = undefined;
  #waiting = false;
  #stopped = false;

  constructor(private readonly plan: RedialPlan, private readonly to: RedialTo<Why>) {}

  /** The socket dropped (or a first dial failed): dial again after the first wait. */
  dropped(why: Why): void {
    this.#attempt = 0;
    this.#schedule(why);
  }

  /** Dials at once if a wait is under way, and the waits start over; otherwise nothing. */
  now(): void {
    if (!this.#waiting || this.#stopped) return;
    this.plan.clock.clear(this.#timer);
    this.#attempt = 0;
    this.#try(0);
  }

  /** Whether the loop is waiting out a backoff (no socket, no dial out). */
  get waiting(): boolean {
    return this.#waiting;
  }

  stop(): void {
    this.#stopped = true;
    this.#waiting = false;
    this.plan.clock.clear(this.#timer);
  }

  #schedule(why: Why): void {
    if (this.#stopped) return;
    const attempt = ++this.#attempt;
    const retryInMs = backoffMs(this.plan, attempt);
    this.#waiting = true;
    this.#timer = this.plan.clock.set(() => this.#try(attempt), retryInMs);
    this.to.waiting(attempt, retryInMs, why);
  }

  async #try(attempt: number): Promise<void> {
    if (this.#stopped) return;
    this.#waiting = false;
    try {
      await this.to.dial();
    } catch (err) {
      if (this.#stopped) return;
      const why = err as Why;
      if (attempt >= this.plan.tries || this.to.final?.(why)) return this.to.gaveUp(why);
      return this.#schedule(why);
    }
    if (!this.#stopped) this.to.opened(attempt);
  }
}
