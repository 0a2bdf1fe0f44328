import type { Logger } from "../log.ts";
import type { Alarms } from "./alarms.ts";
import { accountConfigDir, credentialsStamp, loginLanded, notLoggedInText } from "./login.ts";
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
 *
 * A `config_dir` account's probe sees only its folder, so the seats launched under it tell the
 * rest: a seat's CLI that answers `initialize` with no credential fails the account
 * (`loggedOut`), and one that names a credential, or a re-probe that finds a login written since
 * (the CLI's credentials file, by its stamp alone), makes it ready again.
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
      /** Test seam: the probe itself (probe.ts). */
      probe?: typeof probeAccount;
    },
  ) {}

  start(account: PoolAccount): void {
    this.#track(this.#probe(account).catch((error) => this.#crashed(account, error)));
  }

  /**
   * A probe that threw (a fault of forge's, not an answer) is a failed probe all the same: the
   * account would otherwise stay `probing` for the life of the server, with no retry and no
   * announcement. The chip gets forge's sentence; the engine's words go to the log only.
   */
  #crashed(account: PoolAccount, error: unknown): void {
    const name = account.config.display_name;
    this.deps.log.error("gateway_probe_crashed", { account: name, error });
    if (this.#gone(account)) return;
    this.#fail(
      account,
      `forge failed while probing account ${name}; forge.log has the cause under ` +
        "gateway_probe_crashed",
    );
    this.deps.announce();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.all(this.#inFlight);
  }

  /**
   * A seat's CLI launched under this `config_dir` account found no login in its folder. The
   * account is `failed`, not left `ready`: every seat it would start reads "Needs a login", and
   * a green chip over that fleet would say the opposite. A failed account stays bindable as an
   * org's last resort (AccountPool.bind takes the walk's first account when none is usable), so
   * a one-account org still starts the seat that logs in, while an org with another account
   * sends its next seats there. The account is probed again every `REPROBE_MS`: a login written
   * into the folder since brings it back (`#probe`), and so does a seat that names one.
   */
  loggedOut(account: PoolAccount): void {
    const dir = accountConfigDir(account.config, this.deps.claudeDir);
    this.#track(
      credentialsStamp(dir).then((credentials) => {
        if (this.#gone(account)) return;
        account.loggedOut = { credentials };
        this.#fail(account, notLoggedInText(account.config.display_name, dir));
        this.deps.announce();
      }),
    );
  }

  /** A seat's CLI launched under this account named a credential: a missing login is back. */
  loggedIn(account: PoolAccount): void {
    if (account.loggedOut === null) return;
    account.loggedOut = null;
    this.deps.alarms.cancel(`probe:${account.config.display_name}`);
    this.#ready(account);
    this.deps.announce();
  }

  #track(work: Promise<void>): void {
    const p = work
      .catch((error) => this.deps.log.error("gateway_probe_crashed", { error }))
      .finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
  }

  /** The gateway stopped, or a reload replaced the account: its answer is nobody's now. */
  #gone(account: PoolAccount): boolean {
    return this.#stopping.signal.aborted ||
      this.deps.pool.get(account.config.display_name) !== account;
  }

  async #probe(account: PoolAccount): Promise<void> {
    const { now } = this.deps;
    account.state = "probing";
    const probe = this.deps.probe ?? probeAccount;
    const result = await probe(account.config, this.deps.claudeDir, this.#stopping.signal);
    if (this.#gone(account)) return;
    if (result.ok && account.loggedOut !== null) {
      // The folder is there, but a seat found no login in it: only a login written since counts.
      const dir = accountConfigDir(account.config, this.deps.claudeDir);
      const stamp = await credentialsStamp(dir);
      if (this.#gone(account)) return;
      if (!loginLanded(account.loggedOut.credentials, stamp)) {
        this.#fail(account, notLoggedInText(account.config.display_name, dir));
        this.deps.announce();
        return;
      }
      account.loggedOut = null;
    }
    if (result.ok) {
      this.#ready(account);
      const usage = result.headers ? usageFrom(result.headers, now()) : null;
      if (usage) account.usage = usage;
    } else {
      this.#fail(account, result.why);
      this.deps.log.warn("gateway_probe_failed", {
        account: account.config.display_name,
        why: result.why,
      });
    }
    this.deps.announce();
  }

  #ready(account: PoolAccount): void {
    account.state = "ready";
    account.lastError = null;
    account.retryAt = null;
  }

  /** `failed` with the reason in words, and its next probe `REPROBE_MS` from now. */
  #fail(account: PoolAccount, why: string): void {
    const { now } = this.deps;
    account.state = "failed";
    account.lastError = why;
    account.retryAt = now() + REPROBE_MS;
    this.deps.alarms.set(
      `probe:${account.config.display_name}`,
      account.retryAt,
      now(),
      () => this.start(account),
    );
  }
}
