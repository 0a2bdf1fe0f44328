import type { SeatAccount, SessionUpdate, Slot, WireObject } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import { isJsonObject } from "../workspace/claude/mod.ts";
import { accountConfigDir } from "./login.ts";
import type { AccountPool, PoolAccount } from "./pool.ts";

/** A config dir's OAuth login, without its tokens: the original's `oauth_credentials_snapshot`. */
export type OauthFacts = {
  subscription_type: string | null;
  scopes: string[];
  expires_at: number | null;
};

/**
 * Reads the login the CLI keeps in `<configDir>/.credentials.json` (`claudeAiOauth`) and returns
 * only what a person may see of it: the subscription, the scopes and when the access token
 * expires. The tokens themselves are never read out. Null when the dir holds no OAuth login.
 */
export async function readOauthFacts(configDir: string): Promise<OauthFacts | null> {
  let raw: string;
  try {
    raw = await Deno.readTextFile(`${configDir}/.credentials.json`);
  } catch {
    // No credentials file (a token account, or never logged in): no OAuth facts to show.
    return null;
  }
  try {
    const oauth = (JSON.parse(raw) as Record<string, unknown>)?.claudeAiOauth as
      | Record<string, unknown>
      | undefined;
    if (!oauth || typeof oauth !== "object") return null;
    return {
      subscription_type: typeof oauth.subscriptionType === "string" ? oauth.subscriptionType : null,
      scopes: Array.isArray(oauth.scopes) ? oauth.scopes.filter((s) => typeof s === "string") : [],
      expires_at: typeof oauth.expiresAt === "number" ? oauth.expiresAt : null,
    };
  } catch {
    // The CLI's own file, in a shape this reader does not know: no facts, rather than wrong ones.
    return null;
  }
}

/**
 * What the gateway tells about a seat's account: `forge_account_identity` and `status_snapshot`
 * when the seat connects or moves, `oauth_credentials_snapshot` for a `config_dir` login, and the
 * session subject's `account` field, as the original's updates carry them.
 */
export class SeatFacts {
  /** The CLI's own `initialize` account facts, per seat. */
  readonly #cli = new Map<string, WireObject | null>();

  constructor(
    private readonly pool: AccountPool,
    private readonly emit: (u: SessionUpdate) => void,
    /** The config dir of an account that names none. */
    private readonly claudeDir: string,
  ) {}

  /** The seat's CLI answered `initialize`: what it said of its auth, and whose account it runs. */
  async connected(slot: Slot, cli: unknown): Promise<void> {
    this.#cli.set(slotName(slot), isJsonObject(cli) ? cli : null);
    const account = this.#bound(slot);
    if (!account) return;
    this.identity(slot, account);
    this.emit({
      name: "oauth_credentials_snapshot",
      fields: { key: slot, credentials: await this.#oauth(account) },
    });
  }

  /** The seat now runs under `account`. */
  identity(slot: Slot, account: PoolAccount): void {
    const display_name = account.config.display_name;
    this.emit({ name: "forge_account_identity", fields: { key: slot, display_name } });
    this.emit({
      name: "status_snapshot",
      fields: {
        key: slot,
        account: this.#cli.get(slotName(slot)) ?? null,
        forge_account: { display_name, kind: account.kind },
      },
    });
  }

  /** A seat's `account` session field (protocol/accounts.ts `SeatAccount`). */
  async field(slot: Slot): Promise<SeatAccount> {
    const account = this.#bound(slot);
    if (!account) return null;
    return {
      display_name: account.config.display_name,
      kind: account.kind,
      cli: this.#cli.get(slotName(slot)) ?? null,
      credentials: await this.#oauth(account),
    };
  }

  #bound(slot: Slot): PoolAccount | undefined {
    const b = this.pool.binding(slot);
    return b ? this.pool.get(b.account) : undefined;
  }

  #oauth(account: PoolAccount): Promise<OauthFacts | null> {
    return account.kind === "config_dir"
      ? readOauthFacts(accountConfigDir(account.config, this.claudeDir))
      : Promise.resolve(null);
  }
}
