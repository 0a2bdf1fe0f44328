import type { Logger } from "../log.ts";
import type { Alarms } from "./alarms.ts";
import type { AccountPool, PoolAccount } from "./pool.ts";
import { probeAccount } from "./probe.ts";
import { usageFrom } from "./usage.ts";

/** How long a failed account waits before it is probed again. */
export const REPROBE_MS = 30_000;

/**
 * Runs the accounts' probes: `probing` until the probe answers, then `ready` (with the usage its
 * headers carried) or `failed` with the reason and the next try `REPROBE_MS` later. Each answer
 * is announced. `stop` aborts what is in flight and waits for it, so no probe outlives the
 * gateway. spec: home > accounts (loading state per account, the settled flag).
 */
export class Prober {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stopping = new AbortController();

  constructor(
    private readonly deps: {
      pool: AccountPool;
      alarms: Alarms;
      log: Logger;
      /** The config dir of an account that names none. */
      claudeDir: string;
      now: () => number;
      announce: () => void;
    },
  ) {}

  start(account: PoolAccount): void {
    const p = this.#probe(account)
      .catch((error) => this.deps.log.error("gateway_probe_crashed", { error }))
      .finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.all(this.#inFlight);
  }

  async #probe(account: PoolAccount): Promise<void> {
    const { pool, now } = this.deps;
    account.state = "probing";
    const result = await probeAccount(account.config, this.deps.claudeDir, this.#stopping.signal);
    if (this.#stopping.signal.aborted || pool.get(account.config.display_name) !== account) return;
    if (result.ok) {
      account.state = "ready";
      account.lastError = null;
      account.retryAt = null;
      const usage = result.headers ? usageFrom(result.headers, now()) : null;
      if (usage) account.usage = usage;
    } else {
      account.state = "failed";
      account.lastError = result.why;
      account.retryAt = now() + REPROBE_MS;
      this.deps.log.warn("gateway_probe_failed", {
        account: account.config.display_name,
        why: result.why,
      });
      this.deps.alarms.set(
        `probe:${account.config.display_name}`,
        account.retryAt,
        now(),
        () => this.start(account),
      );
    }
    this.deps.announce();
  }
}
