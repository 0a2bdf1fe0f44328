/**
 * Vault unlock bench: a fresh forge process unlocking the vault beside the official `bw` CLI
 * doing the same calls in a fresh process of its own, against one HTTPS fake, PBKDF2 and Argon2id.
 *
 *   tools/deno.sh task bench vault_unlock [--rounds 5] [--bw-runtime node|deno]
 *
 * Arms, interleaved round by round (the order flips every round), each a whole process timed
 * from spawn to exit:
 *   forge unlock   arms/vault_unlock_once.ts: Deno start, module load, prelogin, the KDF, the
 *                  password grant with a TOTP code, sync, key check. Its in-process KDF and
 *                  unlock are printed beside it.
 *   bw login       `bw login <email> <password> --method 0 --code <totp>` from a logged-out state:
 *                  the official client's same calls (the fake's request log is printed per arm,
 *                  so a reader sees both did the same work).
 *   bw unlock      `bw unlock --passwordenv` of a logged-in, locked client: the KDF and a local
 *                  decrypt, no login. forge keeps no login on disk, so this is not its equal; it
 *                  is shown because the earlier figure compared against it.
 * Floors: `deno run` of an empty module and `bw --version`, each a fresh process: the start-up
 * cost no unlock in that runtime can beat.
 *
 * `bw` runs under Node (the way the official CLI ships), installed from Deno's npm cache into a
 * temp dir; `--bw-runtime deno` runs it under Deno's Node layer, as tests/vault_bw_cli_test.ts does.
 */
import { BW_CLI } from "../../fixtures/vault_server/bw_cli.ts";
import { type FakeVault, startFakeVault } from "../../fixtures/vault_server/mod.ts";
import { makeTestTls } from "../../fixtures/vault_server/tls.ts";
import { spread } from "./support/stats.ts";
import { stringFlag } from "./support/flags.ts";

const ROUNDS = Number(stringFlag("rounds", "5"));
const BW_RUNTIME = stringFlag("bw-runtime", "node");
const HERE = new URL(".", import.meta.url).pathname;

const tls = await makeTestTls();
const dir = await Deno.makeTempDir({ prefix: "forge-bench-vault-" });
const vaults = {
  pbkdf2: await startFakeVault({ tls: { cert: tls.cert, key: tls.key } }),
  argon2id: await startFakeVault({ kdf: "argon2id", tls: { cert: tls.cert, key: tls.key } }),
};
await Deno.writeTextFile(`${dir}/empty.ts`, "");

/** The command that runs `bw`: Node on the installed package, or Deno on the npm specifier. */
async function bwCommand(): Promise<string[]> {
  if (BW_RUNTIME === "deno") {
    return [Deno.execPath(), "run", "-A", "--no-config", "--quiet", BW_CLI];
  }
  const version = BW_CLI.split("@").at(-1);
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({ dependencies: { "@bitwarden/cli": version } }),
  );
  const o = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--node-modules-dir=auto", "--quiet"],
    cwd: dir,
    stderr: "piped",
  }).output();
  if (!o.success) throw new Error(`installing bw failed: ${new TextDecoder().decode(o.stderr)}`);
  return ["node", `${dir}/node_modules/@bitwarden/cli/build/bw.js`];
}
const BW = await bwCommand();

/** Runs a process to its end under bash's `time`: wall and CPU ms (it and its children), stdout. */
async function timed(cmd: string[], env: Record<string, string> = {}) {
  const o = await new Deno.Command("bash", {
    args: ["-c", 'TIMEFORMAT="@time %R %U %S"; time "$@"', "bash", ...cmd],
    cwd: dir,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  const stderr = text(o.stderr);
  const m = stderr.match(/@time ([\d.]+) ([\d.]+) ([\d.]+)\s*$/);
  if (!m) throw new Error(`no timing from ${cmd.slice(0, 3).join(" ")}: ${stderr.slice(-300)}`);
  const [wall, user, sys] = [m[1], m[2], m[3]].map((s) => Number(s) * 1000);
  return { ms: wall, cpu: user + sys, ok: o.success, stdout: text(o.stdout), stderr };
}

const bwEnv = (kdf: string) => ({
  BITWARDENCLI_APPDATA_DIR: `${dir}/bw-${kdf}`,
  NODE_EXTRA_CA_CERTS: tls.caFile,
});
const bw = (kdf: string, args: string[], env: Record<string, string> = {}) =>
  timed([...BW, ...args, "--nointeraction"], { ...bwEnv(kdf), ...env });

const walls: Record<string, number[]> = {};
const cpus: Record<string, number[]> = {};
const inner: Record<string, { kdf: number[]; unlock: number[] }> = {};
const moved: Record<string, string> = {};
const add = (arm: string, r: { ms: number; cpu: number }) => {
  (walls[arm] ??= []).push(r.ms);
  (cpus[arm] ??= []).push(r.cpu);
};

/** What the fake served during `run`: the calls, in order, for the arm's "moved" line. */
async function watching(arm: string, vault: FakeVault, run: () => Promise<void>) {
  const before = vault.state.requests.length;
  await run();
  const calls = vault.state.requests.slice(before)
    .map((r) => `${r.method} ${r.path}${r.grant ? ` (${r.grant})` : ""}`);
  moved[arm] = calls.join(", ") || "no calls";
}

async function forgeArm(kdf: keyof typeof vaults) {
  const v = vaults[kdf];
  const arm = `forge unlock ${kdf}`;
  await watching(arm, v, async () => {
    const r = await timed([
      Deno.execPath(),
      "run",
      "--allow-all",
      `${HERE}arms/vault_unlock_once.ts`,
    ], {
      FORGE_BENCH_VAULT_URL: v.url,
      FORGE_BENCH_VAULT_CA_FILE: tls.caFile,
      FORGE_BENCH_VAULT_EMAIL: v.state.email,
      FORGE_BENCH_VAULT_PASSWORD: v.state.password,
      FORGE_BENCH_VAULT_CODE: await v.totpNow(),
    });
    if (!r.ok) throw new Error(`${arm} failed: ${r.stderr}`);
    const split = JSON.parse(r.stdout.split("\n").at(-1)!);
    add(arm, r);
    (inner[arm] ??= { kdf: [], unlock: [] }).kdf.push(split.kdf_ms);
    inner[arm].unlock.push(split.unlock_ms);
  });
}

async function bwArms(kdf: keyof typeof vaults) {
  const v = vaults[kdf];
  await bw(kdf, ["logout"]);
  await watching(`bw login ${kdf}`, v, async () => {
    const code = await v.totpNow();
    const r = await bw(kdf, [
      "login",
      v.state.email,
      v.state.password,
      "--method",
      "0",
      "--code",
      code,
      "--raw",
    ]);
    if (!r.ok) throw new Error(`bw login failed: ${r.stderr}`);
    add(`bw login ${kdf}`, r);
  });
  await bw(kdf, ["lock"]);
  await watching(`bw unlock ${kdf}`, v, async () => {
    const r = await bw(kdf, ["unlock", "--passwordenv", "BW_PASSWORD", "--raw"], {
      BW_PASSWORD: v.state.password,
    });
    if (!r.ok) throw new Error(`bw unlock failed: ${r.stderr}`);
    add(`bw unlock ${kdf}`, r);
  });
}

try {
  const config = await bw("pbkdf2", ["config", "server", vaults.pbkdf2.url]);
  const config2 = await bw("argon2id", ["config", "server", vaults.argon2id.url]);
  if (!config.ok || !config2.ok) {
    throw new Error(`bw config failed: ${config.stderr}${config2.stderr}`);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const kdf of ["pbkdf2", "argon2id"] as const) {
      if (r % 2 === 0) {
        await forgeArm(kdf);
        await bwArms(kdf);
      } else {
        await bwArms(kdf);
        await forgeArm(kdf);
      }
    }
    add("floor: deno run, empty module", await timed([Deno.execPath(), "run", `${dir}/empty.ts`]));
    add("floor: bw --version", await bw("pbkdf2", ["--version"]));
  }
} finally {
  await vaults.pbkdf2.close();
  await vaults.argon2id.close();
  await tls.remove();
  await Deno.remove(dir, { recursive: true });
}

console.log(
  `vault unlock, fresh processes, ${ROUNDS} interleaved rounds, ${navigator.hardwareConcurrency} ` +
    `cores; bw on ${BW_RUNTIME}. Wall and CPU ms (process and children) from spawn to exit, ` +
    "median (min..max):",
);
for (const [arm, xs] of Object.entries(walls)) {
  const split = inner[arm]
    ? `; in-process KDF ${spread(inner[arm].kdf, 0)}, unlock ${spread(inner[arm].unlock, 0)}`
    : "";
  console.log(`  ${arm.padEnd(30)} wall ${spread(xs, 0)}, CPU ${spread(cpus[arm], 0)}${split}`);
  if (moved[arm]) console.log(`  ${"".padEnd(30)} moved: ${moved[arm]}`);
}
