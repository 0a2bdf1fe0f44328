import { z } from "zod";
import { Slot } from "./slot.ts";

// The account pool and the gateway on the wire. spec: What a subject carries > home > accounts;
// What a client receives > update (the account pool paragraph). Where the spec leaves a shape
// open these follow the original's updates and its HomeWire.accounts, with two changes the
// issue names: an account's loading state reads `probing | ready | failed` (the original's
// `loading | ready | bailed`), and each pool row carries `at_cap` and `cooling`.

/** How an account authenticates: forge holds its `token`, or the CLI's own login in `config_dir`. */
export const AccountKind = z.enum(["token", "config_dir"]);
export type AccountKind = z.infer<typeof AccountKind>;

/** An account's loading state: its first probe running, answered, or failed (reason in words). */
export const AccountState = z.enum(["probing", "ready", "failed"]);
export type AccountState = z.infer<typeof AccountState>;

/** One rate-limit window the upstream reported in its response headers. */
export const RateLimitWindow = z.object({
  /** `5h`, `7d`, `7d_opus`... for the unified windows; `requests`, `tokens`, `input_tokens`,
   * `output_tokens` for an API key's. */
  name: z.string(),
  /** Fraction used, 0..1 (the unified windows), when reported. */
  utilization: z.number().nullable(),
  limit: z.number().nullable(),
  remaining: z.number().nullable(),
  /** When the window resets, unix milliseconds. */
  resets_at: z.number().nullable(),
  /** The window's own status (`allowed`, `allowed_warning`, `rejected`), when reported. */
  status: z.string().nullable(),
}).strict();
export type RateLimitWindow = z.infer<typeof RateLimitWindow>;

/** An account's cached usage: the last rate-limit headers its upstream answered with. */
export const AccountUsage = z.object({
  /** Unix milliseconds of the response the snapshot was read from. */
  observed_at: z.number(),
  /** `anthropic-ratelimit-unified-status`, when the upstream sent it. */
  status: z.string().nullable(),
  windows: z.array(RateLimitWindow),
}).strict();
export type AccountUsage = z.infer<typeof AccountUsage>;

/** The state a chip draws: the account's own, with cooling and at-cap taking precedence. */
export const ChipState = z.enum(["ready", "probing", "at_cap", "cooling", "failed"]);
export type ChipState = z.infer<typeof ChipState>;

/** A project row's chip: the account its next seat would bind, and that account's state. */
export const Chip = z.object({ account_name: z.string(), state: ChipState }).strict();
export type Chip = z.infer<typeof Chip>;

/** One account in an org's walk order, as the pool sees it now. */
export const PoolRow = z.object({
  display_name: z.string(),
  provider: z.string(),
  kind: AccountKind,
  /** Listed under the org's `fallback_accounts` rather than `accounts`. */
  fallback: z.boolean(),
  loading: AccountState,
  at_cap: z.boolean(),
  cooling: z.boolean(),
  /** Unix milliseconds the cooldown ends, null when not cooling. */
  cooling_until: z.number().nullable(),
  /** Why the row cannot be bound now, in words; null when it can. */
  unusable: z.string().nullable(),
  /** How many of this org's seats run under the account now. */
  seats: z.number().int(),
}).strict();
export type PoolRow = z.infer<typeof PoolRow>;

/** home's `accounts` field, and the state an `accounts_changed` frame carries. */
export const AccountsWire = z.object({
  loading: z.array(
    z.object({
      display_name: z.string(),
      kind: AccountKind,
      state: AccountState,
      /** The probe's failure or the upstream's last refusal, in words. */
      last_error: z.string().nullable(),
      /** Unix milliseconds of the next probe of a failed account, null when none is due. */
      retry_after: z.number().nullable(),
    }).strict(),
  ),
  /** Whether every account's first probe has answered (the settled flag). */
  all_loaded: z.boolean(),
  gateway: z.object({
    ready: z.boolean(),
    port: z.number().int(),
    bind_error: z.string().nullable(),
  }).strict(),
  usage: z.array(
    z.object({
      display_name: z.string(),
      snapshot: AccountUsage.nullable(),
    }).strict(),
  ),
  orgs: z.array(
    z.object({
      org: z.string(),
      accounts: z.array(z.string()),
      fallback_accounts: z.array(z.string()),
      rows: z.array(PoolRow),
    }).strict(),
  ),
}).strict();
export type AccountsWire = z.infer<typeof AccountsWire>;

/** `accounts_changed {accounts}`: keyless; home hears it. spec: the frame carries the pool's own
 * state, so a usage-only move is applied rather than read. */
export const AccountsChanged = z.object({ accounts: AccountsWire }).strict();

/** `forge_account_identity {key, display_name}`: the account a seat runs under now. */
export const ForgeAccountIdentity = z.object({ key: Slot, display_name: z.string() }).strict();

/**
 * `status_snapshot {key, account, forge_account}`: what the CLI reported of its own auth at
 * `initialize` (`tokenSource`, `apiKeySource`, `apiProvider`, kept as it said them) and the forge
 * account the seat's requests go out under.
 */
export const StatusSnapshot = z.object({
  key: Slot,
  account: z.record(z.string(), z.json()).nullable().describe(
    "the CLI's initialize answer's account object, as it wrote it; null when it sent none",
  ),
  forge_account: z.object({ display_name: z.string(), kind: AccountKind }).strict().nullable(),
}).strict();

/**
 * `oauth_credentials_snapshot {key, credentials}`: a `config_dir` account's login as the CLI
 * stores it, without its tokens (the subscription, the scopes, when the access token expires);
 * null for a `token` account or a config dir holding none.
 */
export const OauthCredentialsSnapshot = z.object({
  key: Slot,
  credentials: z.object({
    subscription_type: z.string().nullable(),
    scopes: z.array(z.string()),
    expires_at: z.number().nullable(),
  }).strict().nullable(),
}).strict();

/** `auth_required {key, method_name, method_description}`: the upstream refused the seat's
 * credential (HTTP 401). The original's update, by its fields. */
export const AuthRequired = z.object({
  key: Slot,
  method_name: z.string(),
  method_description: z.string(),
}).strict();

/** A seat's account facts in its session snapshot (`account`). */
export const SeatAccount = z.object({
  display_name: z.string(),
  kind: AccountKind,
  cli: z.record(z.string(), z.json()).nullable().describe(
    "the CLI's initialize answer's account object, as it wrote it (status_snapshot's account)",
  ),
  credentials: OauthCredentialsSnapshot.shape.credentials,
}).strict().nullable();
export type SeatAccount = z.infer<typeof SeatAccount>;
