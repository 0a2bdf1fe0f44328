import { type Clock, MONOTONIC } from "../clock.ts";

/**
 * Runs `tick` now and then until stopped. `failed` hears anything a tick threw or rejected with,
 * so one bad read never escapes the timer (where nothing would catch it). Tests inject a schedule
 * that ticks when they say so, so no test waits on the clock.
 */
export type PollSchedule = (
  tick: () => Promise<void>,
  failed: (error: unknown) => void,
) => { stop(): void };

/**
 * A tick at once and then every `ms` after the last one ended: a slow read never stacks with the
 * next, and a tick that throws is handed to `failed` and the next still comes.
 */
export function every(ms: number, clock: Clock = MONOTONIC): PollSchedule {
  return (tick, failed) => {
    let stopped = false;
    let timer: unknown = null;
    const run = () => {
      timer = null;
      Promise.resolve()
        .then(tick)
        .catch(failed)
        .finally(() => {
          if (!stopped) timer = clock.set(run, ms);
        });
    };
    run();
    return {
      stop: () => {
        stopped = true;
        if (timer !== null) clock.clear(timer);
      },
    };
  };
}
