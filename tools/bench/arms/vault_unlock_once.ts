/**
 * One forge vault unlock in a process of its own, the way a fresh forge meets a locked vault:
 * prelogin, the KDF, the password grant with the TOTP code, the sync and the key check. The
 * vault bench times this whole process from the outside against `bw` doing the same calls in a
 * process of its own; this prints the unlock's own split as one JSON line for the table.
 *
 *   deno run --allow-all vault_unlock_once.ts   (FORGE_BENCH_VAULT_* in the environment)
 */
import { VaultApi } from "../../../subsystems/vault/api.ts";
import { VaultSession } from "../../../subsystems/vault/session.ts";

const env = (name: string) => {
  const v = Deno.env.get(`FORGE_BENCH_VAULT_${name}`);
  if (!v) throw new Error(`FORGE_BENCH_VAULT_${name} is not set`);
  return v;
};
const started = performance.now();
const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(env("CA_FILE"))] });
let kdfMs = 0;
const session = new VaultSession({
  api: () => new VaultApi(env("URL"), client),
  email: () => env("EMAIL"),
  idleMs: () => 60_000,
  onLockChange: () => {},
  onRotated: () => {},
  onKdf: (ms) => (kdfMs = ms),
});
const t0 = performance.now();
await session.unlock({ password: env("PASSWORD"), code: env("CODE") });
const unlockMs = performance.now() - t0;
session.stop();
client.close();
console.log(JSON.stringify({ kdf_ms: kdfMs, unlock_ms: unlockMs, load_ms: t0 - started }));
