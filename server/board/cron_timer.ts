import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";

/**
 * The clock and timer the tick runs on (wall time, epoch ms); tests drive their own. `upSince` is
 * the instant forge came up: a fire due before it fell due while forge was down.
 */
export type TickClock = Clock & { upSince?(): number };

export const REAL_CLOCK: TickClock = {
  now: () => Date.now(),
  upSince: () => performance.timeOrigin,
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id as number),
};

/** The tick never sleeps longer than this, so a clock jump or a suspend is noticed. */
export const MAX_SLEEP_MS = 30_000;
/**
 * The sleep before an instant already past (a schedule due yet not fired: the clock moved under
 * the tick, or its fire could not finish): whatever the schedules hold, the tick never wakes
 * sooner than this on its own.
 */
export const MIN_SLEEP_MS = 1_000;

/**
 * The cron tick's one timer. It wakes the tick at the earliest instant it is given, in chunks of
 * at most MAX_SLEEP_MS, and never sooner than MIN_SLEEP_MS: an instant that is not a number is
 * passed over, one already past waits MIN_SLEEP_MS, so no schedule can make it spin. A tick it
 * starts never rejects: a failure is logged as `cron_tick_failed` (once while it fails the same
 * way) and the tick is woken again a chunk later.
 */
export class TickTimer {
  #timer: unknown = null;
  #stopped = true;
  #running: Promise<void> = Promise.resolve();
  /** How the last tick failed; null after one that did not. */
  #failure: string | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly tick: () => Promise<void>,
  ) {}

  /** Runs the first tick at once; resolves after it, and never rejects. */
  start(): Promise<void> {
    this.#stopped = false;
    return this.#run();
  }

  /** No more wakes; a tick under way finishes. */
  stop(): void {
    this.#stopped = true;
    this.#set(null);
  }

  /** Resolves once the tick this timer began last has finished; never rejects. */
  settled(): Promise<void> {
    return this.#running;
  }

  /** Wakes the tick at the earliest of `instants` (epoch ms); with no finite one, not at all. */
  wakeAt(instants: number[]): void {
    const finite = instants.filter(Number.isFinite);
    if (finite.length === 0) return this.#set(null);
    const wait = Math.min(...finite) - this.clock.now();
    this.#set(wait > 0 ? Math.min(MAX_SLEEP_MS, wait) : MIN_SLEEP_MS);
  }

  /** Wakes the tick one chunk from now: something to look at again, nothing due. */
  wakeLater(): void {
    this.#set(MAX_SLEEP_MS);
  }

  #run(): Promise<void> {
    this.#running = this.tick().then(() => {
      this.#failure = null;
    }, (error) => {
      const words = String(error);
      if (words !== this.#failure) this.log.error("cron_tick_failed", { error });
      this.#failure = words;
      this.wakeLater();
    });
    return this.#running;
  }

  /** The one timer: armed `ms` from now, or cleared (null). Stopped, it stays cleared. */
  #set(ms: number | null): void {
    if (this.#timer !== null) this.clock.clear(this.#timer);
    this.#timer = null;
    if (ms === null || this.#stopped) return;
    this.#timer = this.clock.set(() => {
      this.#timer = null;
      void this.#run();
    }, ms);
  }
}
