/**
 * The clock and timers a component waits on. The real one is the machine's; a test hands in one
 * it moves by hand, so what it checks is the order of events, never how long they took.
 */
export interface Clock {
  /** Milliseconds on this clock's own scale (monotonic for MONOTONIC, epoch for WALL). */
  now(): number;
  /** Arms a timer `ms` from now; answers a handle `clear` takes. */
  set(fn: () => void, ms: number): unknown;
  clear(id: unknown): void;
}

/** The machine's monotonic clock (`performance.now()`) and its timers. */
export const MONOTONIC: Clock = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id as number),
};

/**
 * `clock` with every timer's callback guarded: a throw goes to `failed` (a log record), never
 * out of the timer, where nothing would catch it and the process would end.
 */
export function guarded(clock: Clock, failed: (error: unknown) => void): Clock {
  return {
    now: () => clock.now(),
    set: (fn, ms) =>
      clock.set(() => {
        try {
          fn();
        } catch (error) {
          failed(error);
        }
      }, ms),
    clear: (id) => clock.clear(id),
  };
}
