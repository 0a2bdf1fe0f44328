import type { SessionUpdate, Slot } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import type { ForgeConfig } from "../config/types.ts";
import type { Logger } from "../log.ts";
import type { Alarms } from "./alarms.ts";
import type { RequestLedger } from "./ledger.ts";
import type { AccountPool, PoolAccount } from "./pool.ts";
import type { SeatFacts } from "./seat_facts.ts";
import { resetFrom, usageFrom, windowAtCap } from "./usage.ts";
import { exhaustedText, movedText, refusedText } from "./words.ts";

/** What the outcomes need from the gateway that owns them. */
export interface OutcomeDeps {
  pool: AccountPool;
  alarms: Alarms;
  ledger: RequestLedger;
  facts: SeatFacts;
  log: Logger;
  config(): ForgeConfig;
  emit(update: SessionUpdate): void;
  now(): number;
  /** The config dir of an account that names none (named in the 401 sentence). */
  claudeDir: string;
  /** accounts_changed now. */
  announce(): void;
  /** accounts_changed soon: a usage-only move, coalesced. */
  announceUsage(): void;
}

/**
 * What each forwarded request does to the pool and its seat, before and after it crosses: a
 * seat moved to another account or finding every account cooling is told once (a `notice`); the
 * answer is written in the request ledger; its usage headers move the account's usage and its
 * cap alarm; a 429 streak cools the account until its reset; a 401 marks the seat
 * `auth_required` until an answer succeeds. spec: home > accounts.
 */
export class RequestOutcomes {
  /** Seats whose last answer was a 401: home draws them `AuthRequired` until one succeeds. */
  readonly #refused = new Set<string>();
  /** Seats already told every account is cooling (told once per episode). */
  readonly #toldExhausted = new Set<string>();

  constructor(private readonly deps: OutcomeDeps) {}

  /** Whether the seat's last answer was its upstream refusing the credential (HTTP 401). */
  authRequired(slot: Slot): boolean {
    return this.#refused.has(slotName(slot));
  }

  /** The seat was bound afresh: a later exhaustion is a new episode, told again. */
  rebound(slot: Slot): void {
    this.#toldExhausted.delete(slotName(slot));
  }

  /** Before the request crosses: tells the seat it moved, or that every account is cooling. */
  picked(slot: Slot, account: PoolAccount, movedFrom: string | null, exhausted: boolean): void {
    const { pool, now } = this.deps;
    const name = slotName(slot);
    if (exhausted) {
      if (this.#toldExhausted.has(name)) return;
      this.#toldExhausted.add(name);
      const until = pool.accounts().map((a) => a.clock.until ?? 0);
      const soonest = Math.min(...until.filter((t) => t > now()));
      const first = Number.isFinite(soonest) ? soonest : null;
      this.#notice(slot, "error", exhaustedText(slot.org, account.config.display_name, first));
      return;
    }
    this.#toldExhausted.delete(name);
    if (movedFrom === null) return;
    const from = pool.get(movedFrom);
    const unusable = from ? pool.unusable(from) : "gone from the config";
    this.#notice(slot, "info", movedText(movedFrom, account.config.display_name, unusable));
    this.deps.log.info("gateway_seat_moved", {
      seat: name,
      from: movedFrom,
      to: account.config.display_name,
    });
    this.deps.facts.identity(slot, account);
    this.deps.announce();
  }

  /** After the upstream answered (a status and headers) or could not be reached (a failure). */
  answered(
    slot: Slot,
    account: PoolAccount,
    status: number | null,
    headers: Headers | null,
    failure: string | null,
  ): void {
    const { pool } = this.deps;
    const now = this.deps.now();
    if (failure !== null) {
      this.#notice(slot, "error", failure);
      return;
    }
    const requestId = headers?.get("request-id");
    if (requestId) this.deps.ledger.record(requestId, account.config.display_name);
    const usage = headers ? usageFrom(headers, now) : null;
    if (usage) {
      const wasCapped = pool.atCap(account);
      account.usage = usage;
      if (pool.atCap(account) !== wasCapped) this.deps.announce();
      else this.deps.announceUsage();
      this.#capEnds(account);
    }
    if (status === 429) {
      const rules = pool.rules(this.deps.config());
      const until = account.clock.rateLimited(now, resetFrom(headers!, now), rules);
      if (until !== null) this.#cooling(account, until, rules.streakCount);
    } else {
      account.clock.answered();
    }
    if (status !== null && status >= 200 && status < 300) this.#refused.delete(slotName(slot));
    if (status === 401) this.#unauthorized(slot, account, now);
  }

  #unauthorized(slot: Slot, account: PoolAccount, now: number): void {
    this.#refused.add(slotName(slot));
    account.lastError = `the upstream refused the credential (HTTP 401) at ${
      new Date(now).toISOString()
    }`;
    this.deps.emit({
      name: "auth_required",
      fields: {
        key: slot,
        method_name: account.config.display_name,
        method_description: refusedText(account, this.deps.claudeDir),
      },
    });
    this.deps.announce();
  }

  #cooling(account: PoolAccount, until: number, streak: number): void {
    const name = account.config.display_name;
    this.deps.log.warn("gateway_account_cooling", { account: name, until, streak });
    this.deps.alarms.set(`cool:${name}`, until, this.deps.now(), () => {
      if (account.clock.until !== until) return;
      account.clock.cooled();
      this.deps.log.info("gateway_account_cooled", { account: name });
      this.deps.announce();
    });
    this.deps.announce();
  }

  /** An at-cap account stops being at its cap when its window resets; nothing else says so. */
  #capEnds(account: PoolAccount): void {
    const now = this.deps.now();
    const resets = (account.usage?.windows ?? []).filter((w) => windowAtCap(w, now))
      .map((w) => w.resets_at!);
    if (resets.length === 0) return;
    // Every response repeats the same reset: the alarm for it is set once.
    this.deps.alarms.set(
      `cap:${account.config.display_name}`,
      Math.max(...resets) + 1,
      now,
      () => this.deps.announce(),
    );
  }

  #notice(slot: Slot, severity: "info" | "error", text: string): void {
    this.deps.emit({ name: "notice", fields: { key: slot, severity, text } });
  }
}
