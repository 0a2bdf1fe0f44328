/**
 * Vault unlock bench: what one unlock of the shared vault session costs on this machine, and
 * the same unlock by the official `bw` CLI against the same fake server in the same run.
 *
 *   tools/deno.sh run --allow-all tools/bench/vault_unlock.ts [--rounds 3] [--skip-bw]
 *
 * Arms, interleaved round by round (forge, then bw, against one HTTPS fake):
 *   forge pbkdf2   VaultSession.unlock with password + TOTP: prelogin, PBKDF2-SHA256 600 000,
 *                  password grant, sync, key check. Its KDF alone is reported beside it.
 *   bw pbkdf2      `bw unlock --passwordenv` (the client already logged in): process start,
 *                  the same KDF, its refresh and sync. This is the baseline forge replaces.
 *   forge argon2id the same forge unlock against an Argon2id account (t=3, m=64 MiB, p=4).
 * Each arm prints its median and range in ms.
 */
import { runBw } from "../../fixtures/vault_server/bw_cli.ts";
import { startFakeVault } from "../../fixtures/vault_server/mod.ts";
import { makeTestTls } from "../../fixtures/vault_server/tls.ts";
import { VaultApi } from "../../subsystems/vault/api.ts";
import { VaultSession } from "../../subsystems/vault/session.ts";

const flag = (name: string, dflt: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : dflt;
};
const ROUNDS = Number(flag("rounds", "3"));
const SKIP_BW = Deno.args.includes("--skip-bw");

const tls = await makeTestTls();
const client = Deno.createHttpClient({ caCerts: [tls.ca] });
const pbkdf2 = await startFakeVault({ tls: { cert: tls.cert, key: tls.key } });
const argon = await startFakeVault({ kdf: "argon2id", tls: { cert: tls.cert, key: tls.key } });
const dir = await Deno.makeTempDir({ prefix: "forge-bench-vault-" });
const arms: Record<string, number[]> = {};
const kdfs: Record<string, number[]> = {};
const add = (to: Record<string, number[]>, k: string, v: number) => (to[k] ??= []).push(v);

async function forgeUnlock(name: string, vault: typeof pbkdf2) {
  const session = new VaultSession({
    api: () => new VaultApi(vault.url, client),
    email: () => vault.state.email,
    idleMs: () => 60_000,
    onLockChange: () => {},
    onRotated: () => {},
    onKdf: (ms) => add(kdfs, name, ms),
  });
  const code = await vault.totpNow();
  const t0 = performance.now();
  await session.unlock({ password: vault.state.password, code });
  add(arms, name, performance.now() - t0);
  session.stop();
}

try {
  if (!SKIP_BW) {
    const bw = (args: string[], env: Record<string, string> = {}) =>
      runBw(dir, tls.caFile, args, env);
    await bw(["config", "server", pbkdf2.url]);
    const login = await bw([
      "login",
      pbkdf2.state.email,
      pbkdf2.state.password,
      "--method",
      "0",
      "--code",
      await pbkdf2.totpNow(),
      "--raw",
    ]);
    if (login.code !== 0) throw new Error(`bw login failed: ${login.stderr}`);
    await bw(["lock"]);
    for (let r = 0; r < ROUNDS; r++) {
      await forgeUnlock("forge pbkdf2", pbkdf2);
      const t0 = performance.now();
      const u = await bw(["unlock", "--passwordenv", "BW_PASSWORD", "--raw"], {
        BW_PASSWORD: pbkdf2.state.password,
      });
      add(arms, "bw pbkdf2", performance.now() - t0);
      if (u.code !== 0) throw new Error(`bw unlock failed: ${u.stderr}`);
      await bw(["lock"]);
      await forgeUnlock("forge argon2id", argon);
    }
  } else {
    for (let r = 0; r < ROUNDS; r++) {
      await forgeUnlock("forge pbkdf2", pbkdf2);
      await forgeUnlock("forge argon2id", argon);
    }
  }
} finally {
  client.close();
  await pbkdf2.close();
  await argon.close();
  await tls.remove();
  await Deno.remove(dir, { recursive: true });
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const med = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return `median ${med.toFixed(0)} ms (range ${s[0].toFixed(0)}-${
    s.at(-1)!.toFixed(0)
  }, n=${s.length})`;
};
console.log(`vault unlock, ${ROUNDS} interleaved rounds, ${navigator.hardwareConcurrency} cores`);
for (const [name, xs] of Object.entries(arms)) {
  const kdf = kdfs[name] ? `; KDF alone ${stat(kdfs[name])}` : "";
  console.log(`  ${name.padEnd(15)} ${stat(xs)}${kdf}`);
}
