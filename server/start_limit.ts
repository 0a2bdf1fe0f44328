import type { Clock } from "./clock.ts";

/** A subsystem's start that outran `[server] subsystem_start_secs`: the sentence the operator reads. */
export class SlowStart extends Error {
  constructor(readonly subsystem: string, readonly secs: number) {
    super(
      `the ${subsystem} subsystem did not finish starting within ${secs} s ` +
        `(server.subsystem_start_secs); it stays off until forge restarts`,
    );
    this.name = "SlowStart";
  }
}

/**
 * Runs `start` with `ms` on `clock` to finish: its outcome when it finishes in time, else
 * `tooSlow()` thrown when the time is up. `start` is told whether the time is up (`late()`), so it
 * can skip work not yet begun; what it does finish after the limit is handed to `afterLimit`,
 * which must stop it and handle its rejection: nobody awaits it any more.
 */
export async function withinLimit<T>(
  clock: Clock,
  ms: number,
  start: (late: () => boolean) => Promise<T>,
  tooSlow: () => Error,
  afterLimit: (started: Promise<T>) => void,
): Promise<T> {
  let late: Error | null = null;
  let timer: unknown;
  const expired = new Promise<never>((_, reject) => {
    timer = clock.set(() => {
      late = tooSlow();
      reject(late);
    }, ms);
  });
  const started = start(() => late !== null);
  try {
    return await Promise.race([started, expired]);
  } catch (err) {
    // Only when the time is what ended the wait: a start that failed in time is its own error.
    if (err === late) afterLimit(started);
    throw err;
  } finally {
    clock.clear(timer);
  }
}
