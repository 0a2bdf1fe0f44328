import { type Tokens, VaultApi, VaultServerError } from "./api.ts";
import * as c from "./crypto.ts";
import { type ItemView, openItem } from "./items.ts";
import { Lock } from "../../server/lock.ts";

/** Why the session locked. spec: Editing the config > vault (locked at boot, idle, vault_lock,
 * a failed refresh, and a decryption that means the keys rotated). */
export type LockReason = "boot" | "idle" | "vault_lock" | "refresh_failed" | "keys_rotated";

/** Unlock material from a respond_vault_ask approval. */
export type UnlockMaterial =
  | { password: string; code: string | null }
  | { refresh_token: string; user_key: string };

/** An unlock the server or the keys refused: the sentence is safe to show and to log. */
export class UnlockRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnlockRefused";
  }
}

/** A call that needs the session open found it locked (or it locked under the call). */
export class VaultLocked extends Error {
  constructor(readonly reason: LockReason) {
    super(`the vault is locked (${reason.replace("_", " ")})`);
    this.name = "VaultLocked";
  }
}

interface Open {
  access: string;
  accessExpiresAt: number;
  refresh: string;
  userKey: c.SymKey;
}

export interface SessionOptions {
  api: () => VaultApi;
  email: () => string;
  /** The idle bound, read at each use (a live key). */
  idleMs: () => number;
  /** The lock state moved (either way). */
  onLockChange: (locked: boolean, reason: LockReason | null) => void;
  /** The server handed back a new refresh token. spec: vault_rotated. */
  onRotated: (refreshToken: string) => void;
  /** How long a KDF took: logged as a number, for the unlock cost on this machine. */
  onKdf?: (ms: number, kdf: c.Kdf) => void;
}

/**
 * The ONE shared vault session, in memory only: an access token, the refresh token and the
 * user key while open; nothing at all while locked. Every operation runs on the open session,
 * refreshing the access token near its expiry (a refused refresh locks), and a MAC failure on
 * decryption locks too: the account's keys rotated under it.
 */
export class VaultSession {
  #open: Open | null = null;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #lock = new Lock();
  lastLock: LockReason | null = "boot";

  constructor(private readonly opts: SessionOptions) {}

  get locked(): boolean {
    return this.#open === null;
  }

  /** The material a device wraps to enrol, or null while locked. spec: vault_enrolment_material. */
  material(): { refresh_token: string; user_key: string } | null {
    if (!this.#open) return null;
    return {
      refresh_token: this.#open.refresh,
      user_key: c.toBase64(c.joinKey(this.#open.userKey)),
    };
  }

  /** Opens the session; one unlock at a time. Throws `UnlockRefused` in words on a wrong answer. */
  unlock(material: UnlockMaterial): Promise<void> {
    return this.#lock.run(() => this.#unlock(material));
  }

  async #unlock(material: UnlockMaterial): Promise<void> {
    const api = this.opts.api();
    let tokens: Tokens;
    let userKey: c.SymKey;
    if ("password" in material) {
      const email = this.opts.email();
      const kdf = await api.prelogin(email);
      const started = performance.now();
      const mk = await c.deriveMasterKey(material.password, email, kdf);
      this.opts.onKdf?.(performance.now() - started, kdf);
      const hash = await c.authHash(mk, material.password);
      tokens = await this.#grant(() => api.passwordGrant(email, hash, material.code));
      if (!tokens.Key) throw new UnlockRefused("the vault server sent no key for the account");
      try {
        userKey = c.splitKey(await c.decrypt(tokens.Key, await c.stretch(mk)));
      } catch {
        throw new UnlockRefused("the master password does not open this account's key");
      }
    } else {
      try {
        userKey = c.splitKey(c.fromBase64(material.user_key));
      } catch {
        throw new UnlockRefused("the released user key is not a 64-byte key in base64");
      }
      tokens = await this.#grant(() => api.refreshGrant(material.refresh_token));
    }
    const open: Open = {
      access: tokens.access_token,
      accessExpiresAt: Date.now() + tokens.expires_in * 1000,
      refresh: tokens.refresh_token,
      userKey,
    };
    // Prove the key opens this vault before calling the session open: the profile's private
    // key is encrypted under the user key.
    const sync = await api.sync(open.access);
    const probe = sync.profile.privateKey ?? sync.ciphers[0]?.name;
    if (probe) {
      try {
        await c.decrypt(probe, userKey);
      } catch {
        throw new UnlockRefused("the released user key does not open this vault");
      }
    }
    const rotated = "refresh_token" in material && material.refresh_token !== open.refresh;
    this.#open = open;
    this.lastLock = null;
    this.#touch();
    this.opts.onLockChange(false, null);
    if (rotated) this.opts.onRotated(open.refresh);
  }

  async #grant(run: () => Promise<Tokens>): Promise<Tokens> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof VaultServerError) {
        if (err.reason === "two_factor_required") {
          throw new UnlockRefused(
            "the account asks for a two-step code: send it with the password",
          );
        }
        if (err.reason === "refresh_refused") {
          throw new UnlockRefused(
            "the released refresh token was refused: unlock with the password",
          );
        }
        if (err.reason !== "unreachable" && err.reason !== "refused") {
          throw new UnlockRefused(err.message);
        }
      }
      throw err;
    }
  }

  /** Locks now; a no-op when already locked. */
  lock(reason: LockReason): void {
    clearTimeout(this.#idle);
    if (!this.#open) return;
    this.#open = null;
    this.lastLock = reason;
    this.opts.onLockChange(true, reason);
  }

  #touch(): void {
    clearTimeout(this.#idle);
    const timer = setTimeout(() => this.lock("idle"), this.opts.idleMs());
    Deno.unrefTimer(timer);
    this.#idle = timer;
  }

  /** A fresh access token: refreshed a minute before expiry; a refused refresh locks. */
  async #access(force = false): Promise<Open> {
    const open = this.#open;
    if (!open) throw new VaultLocked(this.lastLock ?? "boot");
    if (!force && open.accessExpiresAt - Date.now() > 60_000) return open;
    let tokens: Tokens;
    try {
      tokens = await this.opts.api().refreshGrant(open.refresh);
    } catch (err) {
      if (err instanceof VaultServerError && err.reason === "refresh_refused") {
        this.lock("refresh_failed");
        throw new VaultLocked("refresh_failed");
      }
      throw err;
    }
    if (this.#open !== open) throw new VaultLocked(this.lastLock ?? "vault_lock");
    open.access = tokens.access_token;
    open.accessExpiresAt = Date.now() + tokens.expires_in * 1000;
    if (tokens.refresh_token !== open.refresh) {
      open.refresh = tokens.refresh_token;
      this.opts.onRotated(open.refresh);
    }
    return open;
  }

  /**
   * Runs one operation on the open session with a fresh token and a fresh sync; retries once
   * on a refused token, and locks on a MAC failure (the keys rotated).
   */
  async use<T>(op: (ctx: SessionContext) => Promise<T>): Promise<T> {
    const api = this.opts.api();
    let open = await this.#access();
    this.#touch();
    try {
      const run = async (o: Open) => {
        const sync = await api.sync(o.access);
        const items = async () =>
          await Promise.all(
            sync.ciphers.filter((r) => !r.deletedDate).map((r) => openItem(r, o.userKey)),
          );
        return await op({ api, access: o.access, userKey: o.userKey, items });
      };
      try {
        return await run(open);
      } catch (err) {
        if (!(err instanceof VaultServerError && err.reason === "unauthorized")) throw err;
        open = await this.#access(true);
        return await run(open);
      }
    } catch (err) {
      if (err instanceof c.MacMismatch) {
        this.lock("keys_rotated");
        throw new VaultLocked("keys_rotated");
      }
      throw err;
    }
  }

  stop(): void {
    clearTimeout(this.#idle);
    this.#open = null;
  }
}

/** What an operation sees of the open session. */
export interface SessionContext {
  api: VaultApi;
  access: string;
  userKey: c.SymKey;
  items(): Promise<ItemView[]>;
}
