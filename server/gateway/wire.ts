import type { AccountsWire, Chip, ChipState } from "../../protocol/accounts.ts";
import type { Slot } from "../../protocol/mod.ts";
import type { ForgeConfig, OrgConfig } from "../config/types.ts";
import type { AccountPool, PoolAccount } from "./pool.ts";

/** The listener's own state. spec: home > accounts (the gateway listener's ready state and port). */
export interface ListenerState {
  ready: boolean;
  port: number;
  bind_error: string | null;
}

/** home's `accounts` field (and what `accounts_changed` carries), from the pool as it is now. */
export function accountsWire(
  pool: AccountPool,
  config: ForgeConfig,
  listener: ListenerState,
  now: number,
  occupied: (slot: Slot) => boolean = () => true,
): AccountsWire {
  const accounts = pool.accounts();
  return {
    loading: accounts.map((a) => ({
      display_name: a.config.display_name,
      kind: a.kind,
      state: a.state,
      last_error: a.lastError,
      retry_after: a.retryAt,
    })),
    all_loaded: pool.settled(),
    gateway: { ...listener },
    usage: accounts.map((a) => ({ display_name: a.config.display_name, snapshot: a.usage })),
    orgs: config.orgs.map((org) => ({
      org: org.name,
      accounts: org.accounts,
      fallback_accounts: org.fallback_accounts,
      rows: pool.walk(org).map(({ account, fallback }) => {
        const cooling = account.clock.cooling(now);
        return {
          display_name: account.config.display_name,
          provider: account.config.provider,
          kind: account.kind,
          fallback,
          loading: account.state,
          at_cap: pool.atCap(account),
          cooling,
          cooling_until: cooling ? account.clock.until : null,
          unusable: pool.unusable(account),
          seats: pool.bindings().filter((b) =>
            b.org === org.name && b.account === account.config.display_name && occupied(b.slot)
          ).length,
        };
      }),
    })),
  };
}

/** The state a chip draws for an account: failed, cooling and at-cap before its loading state. */
export function chipState(pool: AccountPool, a: PoolAccount, now: number): ChipState {
  if (a.state === "failed") return "failed";
  if (a.clock.cooling(now)) return "cooling";
  if (pool.atCap(a)) return "at_cap";
  return a.state;
}

/**
 * A project row's `would_bind` and `chip`: whether its org's next seat would bind an account, and
 * which one with its state. When every account is cooling or failed the chip names the first in
 * the walk (the one a seat would still be sent to) and `would_bind` is false.
 */
export function projectBinding(
  pool: AccountPool,
  org: OrgConfig | undefined,
  now: number,
): { would_bind: boolean; chip: Chip | null } {
  if (!org) return { would_bind: false, chip: null };
  const chosen = pool.choose(org);
  const shown = chosen ?? pool.walk(org)[0]?.account ?? null;
  return {
    would_bind: chosen !== null,
    chip: shown
      ? { account_name: shown.config.display_name, state: chipState(pool, shown, now) }
      : null,
  };
}
