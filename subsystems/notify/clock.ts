/**
 * The notifier's sense of time, injected so its tests move time rather than wait for it: the
 * coalesce window, the gather before a push leaves, a send's deadline and the retry back-off
 * all run on it.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms`; returns the call that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/** The wall clock. */
export const WALL_CLOCK: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
