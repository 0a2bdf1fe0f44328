import type {
  AccountKind,
  AccountsWire,
  AccountUsage,
  Chip,
  SeatAccount,
} from "../../protocol/accounts.ts";
import type { SessionUpdate, Slot } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import type { AccountConfig, ForgeConfig, ProjectConfig } from "../config/types.ts";
import type { Logger } from "../log.ts";
import type { StateKeeper } from "../state/keeper.ts";
import { Alarms } from "./alarms.ts";
import { apiError, forward } from "./forward.ts";
import { listen } from "./listener.ts";
import { RequestLedger } from "./ledger.ts";
import { UsageCache } from "./usage_cache.ts";
import { AccountPool } from "./pool.ts";
import { RequestOutcomes } from "./outcomes.ts";
import { Prober } from "./prober.ts";
import { SeatFacts } from "./seat_facts.ts";
import { accountsWire, type ListenerState, projectBinding } from "./wire.ts";
import { defaultClaudeDir } from "../workspace/claude/paths.ts";
import { credentialVerdict } from "../workspace/seats/credential.ts";

/** A usage-only move is announced at most this often (every response carries one). */
export const USAGE_ANNOUNCE_MS = 1_000;

/** What a seat's launch needs from the gateway: where the CLI sends its requests, and as whom. */
export interface GatewayLaunch {
  /** `http://127.0.0.1:<port>/seat/<route>`: the CLI's ANTHROPIC_BASE_URL. */
  baseUrl: string;
  account: AccountConfig;
  kind: AccountKind;
}

export interface GatewayOptions {
  log: Logger;
  config(): ForgeConfig;
  emit(update: SessionUpdate): void;
  /** Overrides `[gateway] port` (tests pass 0 for a free one). */
  port?: number;
  /** The config dir of an account that names none (default: `defaultClaudeDir` of forge's env). */
  claudeDir?: string;
  /** forge's state dir: the request ledger lives in `gateway/` under it (none when absent). */
  stateDir?: string;
  /** The keeper of forge's state files (server/state/); with `stateDir`. */
  keeper?: StateKeeper;
  /** Whether a seat has a live occupant: a pool row counts only those seats. Default: all. */
  occupied?: (slot: Slot) => boolean;
  now?: () => number;
}

/**
 * The account gateway: one loopback HTTP listener every seat's CLI uses as its API base URL, and
 * the account pool behind it. A seat is known by the route in its base URL's path (minted per
 * seat, never a credential); each request goes to the seat's bound account's upstream with that
 * account's credential (a `token` account) or the CLI's own (a `config_dir` account), streaming
 * back untouched. 429 streaks rotate the org's seats, a 401 is `auth_required` on the seat, and
 * every move of the pool is `accounts_changed`. spec: home > accounts; config: `[gateway]`.
 */
export class Gateway {
  readonly pool: AccountPool;
  #listener: ListenerState = { ready: false, port: 0, bind_error: null };
  #server: Deno.HttpServer | null = null;
  readonly #routes = new Map<string, Slot>();
  readonly #routeOf = new Map<string, string>();
  readonly #alarms = new Alarms();
  readonly #facts: SeatFacts;
  readonly #outcomes: RequestOutcomes;
  readonly #ledger: RequestLedger;
  readonly #usageCache: UsageCache;
  readonly #prober: Prober;
  #stopped = false;
  #binding = false;
  #usageTimer: ReturnType<typeof setTimeout> | null = null;
  readonly #now: () => number;
  readonly #claudeDir: string;

  constructor(private readonly opts: GatewayOptions) {
    this.#now = opts.now ?? Date.now;
    this.pool = new AccountPool(this.#now);
    const kept = (name: string) => opts.stateDir && opts.keeper ? `${opts.stateDir}/${name}` : null;
    this.#ledger = new RequestLedger(opts.keeper ?? null, kept("gateway/requests.jsonl"));
    this.#usageCache = new UsageCache(opts.keeper ?? null, kept("gateway/usage.json"));
    const claudeDir = opts.claudeDir ?? defaultClaudeDir(Deno.env.toObject());
    this.#claudeDir = claudeDir;
    this.#facts = new SeatFacts(this.pool, opts.emit, claudeDir);
    this.#prober = new Prober({
      pool: this.pool,
      alarms: this.#alarms,
      log: opts.log,
      claudeDir,
      now: this.#now,
      announce: () => this.#announce(),
    });
    this.#outcomes = new RequestOutcomes({
      pool: this.pool,
      alarms: this.#alarms,
      ledger: this.#ledger,
      facts: this.#facts,
      log: opts.log,
      config: () => opts.config(),
      emit: opts.emit,
      now: this.#now,
      claudeDir,
      announce: () => this.#announce(),
      announceUsage: () => this.#announceUsage(),
    });
  }

  /**
   * Binds the listener (a taken port is a `bind_error`, never a drift) and starts the probes. A
   * config with no accounts has nothing to route: the listener binds once a reload adds one.
   */
  async start(): Promise<void> {
    await this.#ledger.open();
    await this.#usageCache.open();
    this.#listener.port = this.#port();
    await this.#bind();
    // The bind was just tried: a failed one is tried again at the next reload, not here (its
    // refusal would be logged twice for one boot).
    this.#syncAccounts();
  }

  #port(): number {
    return this.opts.port ?? Number(this.opts.config().areas.gateway?.port ?? 8787);
  }

  async #bind(): Promise<void> {
    if (this.#binding || this.#server || this.#stopped) return;
    if (this.opts.config().accounts.length === 0) return;
    this.#binding = true;
    try {
      const bound = await listen(this.#port(), (req) => this.#handle(req), this.opts.log);
      this.#server = bound.server;
      this.#listener = bound.state;
      if (this.#stopped) await this.#server?.shutdown();
    } finally {
      // A bind that failed (a taken port) is tried again at the next reload's sync.
      this.#binding = false;
    }
  }

  /** Takes the config's accounts again (boot and reload): new ones are probed. */
  sync(): void {
    // A reload that adds the first account, or follows a failed bind: the listener binds now,
    // and home hears it.
    if (!this.#server && !this.#binding) void this.#bind().then(() => this.#announce());
    this.#syncAccounts();
  }

  /** New accounts probed (their usage read from the cache first) and home told. */
  #syncAccounts(): void {
    const cached = this.#usageCache.loaded;
    for (const account of this.pool.sync(this.opts.config())) {
      account.usage ??= cached.get(account.config.display_name) ?? null;
      this.#prober.start(account);
    }
    this.#announce();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#prober.stop();
    this.#alarms.clear();
    if (this.#usageTimer !== null) clearTimeout(this.#usageTimer);
    this.#saveUsage();
    await this.#usageCache.flushed();
    await this.#server?.shutdown();
    this.#server = null;
    this.#listener = { ...this.#listener, ready: false };
  }

  listener(): ListenerState {
    return { ...this.#listener };
  }

  wire(): AccountsWire {
    return accountsWire(
      this.pool,
      this.opts.config(),
      this.#listener,
      this.#now(),
      this.opts.occupied ?? (() => true),
    );
  }

  projectRow(project: ProjectConfig): { would_bind: boolean; chip: Chip | null } {
    const org = this.opts.config().orgs.find((o) => o.name === project.org);
    return projectBinding(this.pool, org, this.#now());
  }

  /**
   * Binds a seat for its launch and returns its base URL and account; null when the config
   * declares no accounts (the CLI then talks to whatever its own environment names). Throws a
   * sentence when the listener is not up, because a CLI pointed at nothing fails illegibly.
   */
  launch(slot: Slot, project: ProjectConfig): GatewayLaunch | null {
    const config = this.opts.config();
    const org = config.orgs.find((o) => o.name === project.org);
    if (!org || config.accounts.length === 0) return null;
    if (!this.#listener.ready) {
      throw new Error(
        `the account gateway is not listening (${this.#listener.bind_error ?? "not started"})`,
      );
    }
    const account = this.pool.bind(slot, org);
    if (!account) return null;
    const name = slotName(slot);
    let route = this.#routeOf.get(name);
    if (!route) {
      route = crypto.randomUUID().replaceAll("-", "");
      this.#routeOf.set(name, route);
      this.#routes.set(route, slot);
    }
    this.#outcomes.rebound(slot);
    this.#announce();
    return {
      baseUrl: `http://127.0.0.1:${this.#listener.port}/seat/${route}`,
      account: account.config,
      kind: account.kind,
    };
  }

  /**
   * The seat's CLI answered `initialize`: its auth facts and the account it runs under. A CLI
   * launched under a `config_dir` account tells whether that folder holds a login, which the
   * account's own probe cannot see (Prober.loggedOut), and the pool says so to home.
   */
  connected(slot: Slot, cliAccount: unknown): Promise<void> {
    const login = this.pool.binding(slot)?.login;
    const account = login ? this.pool.get(login) : undefined;
    if (account) {
      const verdict = credentialVerdict(cliAccount);
      if (verdict === "none") this.#prober.loggedOut(account);
      if (verdict === "named") this.#prober.loggedIn(account);
    }
    return this.#facts.connected(slot, cliAccount);
  }

  /** Which account answered each API request, by `request-id` (the usage scan's join). */
  requestAccounts(): Promise<Map<string, string>> {
    return this.#ledger.read();
  }

  /** Whether the seat's last answer was its upstream refusing the credential (HTTP 401). */
  authRequired(slot: Slot): boolean {
    return this.#outcomes.authRequired(slot);
  }

  /** A seat's `account` session field. */
  seatAccount(slot: Slot): Promise<SeatAccount> {
    return this.#facts.field(slot);
  }

  // ---- one request ----------------------------------------------------------------------

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const m = /^\/seat\/([0-9a-f]{32})(\/.*)?$/.exec(url.pathname);
    const slot = m ? this.#routes.get(m[1]) : undefined;
    if (!m || !slot) {
      return apiError(404, "not_found_error", "forge gateway: no seat is routed here");
    }
    // Only the API itself goes upstream with a credential: a probe of anything else (the CLI's
    // connectivity check, say) is answered here and never becomes an authenticated request.
    if (!m[2]?.startsWith("/v1/")) {
      return apiError(404, "not_found_error", `forge gateway: ${m[2] ?? "/"} is not an API path`);
    }
    const config = this.opts.config();
    const org = config.orgs.find((o) => o.name === slot.org);
    const pick = org ? this.pool.pick(slot, org) : null;
    if (!pick) {
      return apiError(503, "api_error", `forge gateway: ${slotName(slot)} has no account to use`);
    }
    this.#outcomes.picked(slot, pick.account, pick.movedFrom, pick.exhausted);
    const body = req.body ? new Uint8Array(await req.arrayBuffer()) : null;
    const apiPath = `${m[2] ?? "/"}${url.search}`;
    const out = await forward(
      pick.account.config,
      req.method,
      apiPath,
      req.headers,
      body,
    );
    this.#outcomes.answered(slot, pick.account, out.status, out.headers, out.failure);
    return out.response;
  }

  /** accounts_changed, carrying the pool's state. */
  #announce(): void {
    if (this.#stopped) return;
    if (this.#usageTimer !== null) {
      clearTimeout(this.#usageTimer);
      this.#usageTimer = null;
    }
    this.#saveUsage();
    this.opts.emit({ name: "accounts_changed", fields: { accounts: this.wire() } });
  }

  #announceUsage(): void {
    if (this.#usageTimer !== null) return;
    this.#usageTimer = setTimeout(() => {
      this.#usageTimer = null;
      this.#announce();
    }, USAGE_ANNOUNCE_MS);
  }

  /** The usage cache follows the announcements (at most one write a second). */
  #saveUsage(): void {
    const usage = new Map<string, AccountUsage>();
    for (const a of this.pool.accounts()) if (a.usage) usage.set(a.config.display_name, a.usage);
    this.#usageCache.save(usage);
  }
}
