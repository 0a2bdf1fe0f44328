import type { Wire } from "../../protocol/mod.ts";
import type { HomeBiometric, HomeVault, VaultRotated } from "../../protocol/vault.ts";
import type { Host } from "../../server/subsystem.ts";
import { VaultApi } from "./api.ts";
import { vaultCalls } from "./calls.ts";
import { VaultCards } from "./cards.ts";
import { vaultCommands } from "./commands.ts";
import { EnrolmentStore } from "./enrolments.ts";
import { VaultSession } from "./session.ts";

/** The `[vault]` keys forge reads; never the master password (spec: Editing the config). */
export interface VaultConfig {
  serverUrl: string | null;
  email: string | null;
  idleMinutes: number;
}

export function vaultConfig(host: Host): VaultConfig {
  const v = host.config().areas.vault ?? {};
  return {
    serverUrl: typeof v.server_url === "string" && v.server_url !== "" ? v.server_url : null,
    email: typeof v.email === "string" && v.email !== "" ? v.email : null,
    idleMinutes: typeof v.idle_lock_minutes === "number" ? v.idle_lock_minutes : 15,
  };
}

/**
 * A vault server URL forge will send a password hash to: https, or plain http on loopback only
 * (a test's fake). Anything else is refused in words at use.
 */
export function checkServerUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The URL parser's words stay out: not a URL is the reason.
    return `vault.server_url "${url}" is not a URL`;
  }
  if (parsed.protocol === "https:") return null;
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname);
  if (parsed.protocol === "http:" && loopback) return null;
  return `vault.server_url must be https (plain http only on loopback), not ${parsed.origin}`;
}

/**
 * The vault subsystem: ONE shared session (locked at boot), the agent's vault tools parking
 * as `vault_ask`, `respond_vault_ask`, the enrolment commands, and the home `vault` and
 * `biometric` rows. spec: Editing the config > vault.
 */
export function create(host: Host, opts: { client?: Deno.HttpClient } = {}) {
  const unusable = () => {
    const cfg = vaultConfig(host);
    if (cfg.serverUrl === null || cfg.email === null) {
      return "[vault] in forge.toml names no server_url and email";
    }
    return checkServerUrl(cfg.serverUrl);
  };
  const configured = () => unusable() === null;
  const session: VaultSession = new VaultSession({
    api: () => {
      const cfg = vaultConfig(host);
      if (!cfg.serverUrl || !cfg.email) {
        throw new Error("[vault] names no server_url and email, so there is no vault to open");
      }
      const bad = checkServerUrl(cfg.serverUrl);
      if (bad) throw new Error(bad);
      return new VaultApi(cfg.serverUrl, opts.client);
    },
    email: () => vaultConfig(host).email ?? "",
    idleMs: () => vaultConfig(host).idleMinutes * 60_000,
    onLockChange: (locked, reason) => {
      host.log.info(locked ? "vault_locked" : "vault_unlocked", { reason });
      cards.restampAll();
    },
    onRotated: (refreshToken) => {
      // spec: the slot-less vault_rotated, live sockets only: emitted, never stored. The token is
      // a secret, and only a client that answers can hold an enrolment to rewrite (as
      // vault_enrolment_material goes to answering connections alone): a read-only one never
      // hears it.
      host.log.info("vault_rotated", {});
      const fields: VaultRotated = { refresh_token: refreshToken };
      host.emit({ name: "vault_rotated", fields }, "answering");
    },
    onKdf: (ms, kdf) => host.log.info("vault_kdf", { ms: Math.round(ms), kdf: kdf.type }),
  });
  const cards = new VaultCards(host, () => session.locked, unusable);
  const store = new EnrolmentStore(host.state, `${host.stateDir}/vault/enrolments.json`);
  const problem = vaultConfig(host).serverUrl ? checkServerUrl(vaultConfig(host).serverUrl!) : null;
  if (problem) host.log.warn("vault_config_refused", { why: problem });

  return {
    verbs: {},
    commands: vaultCommands(host, session, cards, store, configured),
    subjects: {},
    tools: vaultCalls(session, cards),
    homeFields: async (): Promise<Record<string, Wire>> => {
      const vault: HomeVault = configured()
        ? {
          locked: session.locked,
          lock_reason: session.lastLock,
          idle_lock_minutes: vaultConfig(host).idleMinutes,
        }
        : null;
      const devices = await store.listing().catch((error) => {
        // A damaged store lists nothing; the keeper's record and home's fatal_error name it.
        host.log.warn("vault_enrolments_unlisted", { error });
        return [];
      });
      const biometric: HomeBiometric = { devices };
      return { vault, biometric };
    },
    stop: () => {
      session.stop();
      return Promise.resolve();
    },
    /** For tests: the session itself. */
    session,
  };
}
