import type { AccountKind, AccountState, AccountUsage } from "../../protocol/accounts.ts";
import type { Slot } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import type { AccountConfig, ForgeConfig, OrgConfig } from "../config/types.ts";
import { RotationClock, type RotationRules } from "./rotation.ts";
import { atCap } from "./usage.ts";

/** One account as the pool holds it. */
export interface PoolAccount {
  config: AccountConfig;
  kind: AccountKind;
  state: AccountState;
  /** The probe's failure, or the upstream's last refusal, in words. */
  lastError: string | null;
  /** Unix ms of the next probe of a failed account. */
  retryAt: number | null;
  usage: AccountUsage | null;
  clock: RotationClock;
  /**
   * A `config_dir` account a seat's CLI found no login in (its `initialize` named no
   * credential): the config dir's credentials file's stamp at that report (login.ts), so a later
   * probe tells a login that landed since from the file that was already there. Null otherwise.
   */
  loggedOut: { credentials: number | null } | null;
}

/** A seat's binding: the account its requests go out under now. */
export interface Binding {
  slot: Slot;
  org: string;
  account: string;
  /**
   * The `config_dir` account the seat's CLI was launched under, or null for a `token` launch.
   * A CLI's own login lives in the config dir it started with, and its environment is fixed at
   * launch: it can move to any `token` account (the gateway supplies that credential) but to no
   * other `config_dir` account, whose login it does not hold.
   */
  login: string | null;
}

/** What a request's account lookup found: the account, and whether the seat just moved. */
export interface Pick {
  account: PoolAccount;
  /** The account the seat was bound to before this request, when it moved. */
  movedFrom: string | null;
  /** Every account of the org is cooling or failed: the seat stays where it was. */
  exhausted: boolean;
}

/** An account's kind: forge holds its token, or the CLI's own login in its config dir answers. */
export function accountKind(a: AccountConfig): AccountKind {
  return a.token ? "token" : "config_dir";
}

/**
 * The account pool: every account's loading state, cached usage and rotation clock, and every
 * seat's binding. Selection walks an org's `accounts` then `fallback_accounts` and takes the first
 * account that is neither failed nor cooling; a seat bound to a fallback goes back to a primary
 * once one can serve again. spec: home > accounts; projects > would_bind, chip.
 */
export class AccountPool {
  readonly #accounts = new Map<string, PoolAccount>();
  readonly #bindings = new Map<string, Binding>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes the config's accounts: new ones start probing, kept ones keep their state. */
  sync(config: ForgeConfig): PoolAccount[] {
    const fresh: PoolAccount[] = [];
    const names = new Set(config.accounts.map((a) => a.display_name));
    for (const name of [...this.#accounts.keys()]) {
      if (!names.has(name)) this.#accounts.delete(name);
    }
    for (const config_ of config.accounts) {
      const held = this.#accounts.get(config_.display_name);
      const kind = accountKind(config_);
      if (held && held.kind === kind && sameAccount(held.config, config_)) {
        held.config = config_;
        continue;
      }
      const entry: PoolAccount = {
        config: config_,
        kind,
        state: "probing",
        lastError: null,
        retryAt: null,
        usage: held?.usage ?? null,
        clock: new RotationClock(),
        loggedOut: null,
      };
      this.#accounts.set(config_.display_name, entry);
      fresh.push(entry);
    }
    return fresh;
  }

  accounts(): PoolAccount[] {
    return [...this.#accounts.values()];
  }

  get(name: string): PoolAccount | undefined {
    return this.#accounts.get(name);
  }

  /** Every account's first probe has answered. */
  settled(): boolean {
    return this.accounts().every((a) => a.state !== "probing");
  }

  /** Why an account cannot be bound now, in words; null when it can. */
  unusable(a: PoolAccount): string | null {
    if (a.state === "failed") return a.lastError ?? "its probe failed";
    if (a.clock.cooling(this.now())) {
      return `cooling until ${new Date(a.clock.until!).toISOString()}`;
    }
    return null;
  }

  atCap(a: PoolAccount): boolean {
    return atCap(a.usage, this.now());
  }

  /** An org's walk order: its accounts, then its fallbacks, each known to the pool. */
  walk(org: OrgConfig): { account: PoolAccount; fallback: boolean }[] {
    const out: { account: PoolAccount; fallback: boolean }[] = [];
    for (
      const [names, fallback] of [[org.accounts, false], [org.fallback_accounts, true]] as const
    ) {
      for (const name of names) {
        const account = this.#accounts.get(name);
        if (account && !out.some((o) => o.account === account)) out.push({ account, fallback });
      }
    }
    return out;
  }

  /**
   * The account an org's next seat would bind: the first usable one in its walk, else null. With
   * `login`, only the accounts a running CLI can use: `token` ones, and its own `config_dir` one.
   */
  choose(org: OrgConfig, login?: string | null): PoolAccount | null {
    const fits = (a: PoolAccount) =>
      login === undefined || a.kind === "token" || a.config.display_name === login;
    return this.walk(org).find((w) => fits(w.account) && this.unusable(w.account) === null)
      ?.account ?? null;
  }

  /**
   * Binds a seat for its launch: the org's first usable account, else (everything cooling or
   * failed) its first account at all, so the upstream's own answer reaches the CLI.
   */
  bind(slot: Slot, org: OrgConfig): PoolAccount | null {
    const account = this.choose(org) ?? this.walk(org)[0]?.account ?? null;
    if (!account) {
      this.#bindings.delete(slotName(slot));
      return null;
    }
    this.#bindings.set(slotName(slot), {
      slot,
      org: org.name,
      account: account.config.display_name,
      login: account.kind === "config_dir" ? account.config.display_name : null,
    });
    return account;
  }

  binding(slot: Slot): Binding | undefined {
    return this.#bindings.get(slotName(slot));
  }

  bindings(): Binding[] {
    return [...this.#bindings.values()];
  }

  /**
   * The account a seat's request goes out under. A seat stays on its account while it can serve;
   * it moves to the org's first usable account when its own is cooling or failed, or when it runs
   * on a fallback and a primary can serve again. With none usable it stays (`exhausted`).
   */
  pick(slot: Slot, org: OrgConfig): Pick | null {
    const bound = this.#bindings.get(slotName(slot));
    const current = bound ? this.#accounts.get(bound.account) : undefined;
    if (!bound || !current) {
      const account = this.bind(slot, org);
      return account
        ? { account, movedFrom: null, exhausted: this.unusable(account) !== null }
        : null;
    }
    const best = this.choose(org, bound.login);
    if (!best) return { account: current, movedFrom: null, exhausted: true };
    const walk = this.walk(org);
    const onFallback = walk.find((w) => w.account === current)?.fallback ?? true;
    const bestIsPrimary = !walk.find((w) => w.account === best)?.fallback;
    const move = best !== current &&
      (this.unusable(current) !== null || (onFallback && bestIsPrimary));
    if (!move) return { account: current, movedFrom: null, exhausted: false };
    bound.account = best.config.display_name;
    return { account: best, movedFrom: current.config.display_name, exhausted: false };
  }

  /** A seat ended or its project went away: it binds nothing. */
  unbind(slot: Slot): void {
    this.#bindings.delete(slotName(slot));
  }

  rules(config: ForgeConfig): RotationRules {
    const g = config.areas.gateway ?? {};
    const n = (v: unknown, d: number) => typeof v === "number" && v > 0 ? v : d;
    return {
      streakCount: n(g.streak_count, 5),
      streakWindowMs: n(g.streak_window_secs, 60) * 1000,
      noResetCooldownMs: n(g.no_reset_cooldown_secs, 60) * 1000,
    };
  }
}

function sameAccount(a: AccountConfig, b: AccountConfig): boolean {
  return a.token === b.token && a.base_url === b.base_url && a.config_dir === b.config_dir &&
    a.provider === b.provider;
}
