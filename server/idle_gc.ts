/**
 * Gives memory back once the server goes quiet after a burst. Measured with
 * `tools/bench/fuzz.ts`: after 50,000 fuzzed messages the idle server's JS heap held 51 MB used of
 * 108 MB committed, and a full collection brought it to 29 of 31 MB and the RSS down by 68 MiB:
 * nothing was reachable, V8 simply never ran a major collection while nothing allocated. So when
 * at least `minWork` inbound messages (or bytes) arrived since the last collection and none for
 * `quietMs`, one full collection runs. It costs a few tens of ms, only on a server with nothing to
 * do. Without `--expose-gc` (tests, a bare `deno run`) there is nothing to call and this is inert;
 * the launcher and the compiled binary run with it (tools/permissions.ts SERVER_V8_FLAGS).
 */
export class IdleCollector {
  #messages = 0;
  #bytes = 0;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /** How many collections ran (for tests and the log). */
  collections = 0;

  constructor(
    private readonly opts: {
      quietMs: number;
      minMessages: number;
      minBytes: number;
      collect?: (() => void) | null;
      onCollect?: (ms: number) => void;
    },
  ) {
    const collect = opts.collect === undefined ? exposedGc() : opts.collect;
    if (!collect) return;
    this.#arm(collect);
  }

  /** One inbound message of `bytes`. */
  saw(bytes: number): void {
    this.#messages++;
    this.#bytes += bytes;
    this.#last = performance.now();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#stopped = true;
  }

  /** One check every half quiet bound; unref'd, so it never keeps a process alive. */
  #arm(collect: () => void): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#check(collect);
      this.#arm(collect);
    }, Math.max(50, this.opts.quietMs / 2));
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  #check(collect: () => void): void {
    const worked = this.#messages >= this.opts.minMessages || this.#bytes >= this.opts.minBytes;
    if (!worked || performance.now() - this.#last < this.opts.quietMs) return;
    this.#messages = 0;
    this.#bytes = 0;
    const t0 = performance.now();
    collect();
    this.collections++;
    this.opts.onCollect?.(performance.now() - t0);
  }
}

/**
 * V8's `gc()` when the process runs with `--expose-gc`, else null. The last-resort flavour is the
 * one that hands freed pages back: measured in `deno eval` with 190 MB of garbage, a plain `gc()`
 * shrank the heap to 7 MB but left the RSS at 168 MiB; last-resort brought it to 45 MiB.
 */
function exposedGc(): (() => void) | null {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== "function") return null;
  return () => gc({ type: "major", execution: "sync", flavor: "last-resort" });
}
