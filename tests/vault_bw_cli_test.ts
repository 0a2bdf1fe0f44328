import { runBw } from "../fixtures/vault_server/bw_cli.ts";
import { SEED, startFakeVault } from "../fixtures/vault_server/mod.ts";
import { makeTestTls } from "../fixtures/vault_server/tls.ts";
import { VaultApi } from "../subsystems/vault/api.ts";
import { VaultSession } from "../subsystems/vault/session.ts";
import { applyChanges, pickItem } from "../subsystems/vault/items.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";

// spec: Editing the config > vault; tests against a faithful fake: the official
// `bw` CLI logs in to the fake over HTTPS (a throwaway CA), reads what the fake's crypto
// encrypted, writes an item forge's session then decrypts, and reads one forge wrote. So the
// fake cannot drift from the real client's protocol, and forge's crypto is the real client's.

Deno.test({
  name: "the real bw CLI and forge's session both speak to the fake vault server",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tls = await makeTestTls();
  const vault = await startFakeVault({ tls: { cert: tls.cert, key: tls.key } });
  const dir = await Deno.makeTempDir({ prefix: "forge-bw-" });
  const client = Deno.createHttpClient({ caCerts: [tls.ca] });
  const { email, password } = vault.state;
  const bw = (args: string[], env: Record<string, string> = {}) =>
    runBw(dir, tls.caFile, args, env);
  try {
    const configured = await bw(["config", "server", vault.url]);
    assertEquals(configured.code, 0, configured.stderr);
    const login = await bw([
      "login",
      email,
      password,
      "--method",
      "0",
      "--code",
      await vault.totpNow(),
      "--raw",
    ]);
    assertEquals(login.code, 0, login.stderr);
    const session = login.stdout.split("\n").pop()!;
    assertEquals(session.length, 88);
    const as = ["--session", session];
    // bw decrypts what the fake's (forge's) crypto encrypted, a cipher key's item included.
    assertEquals(
      (await bw(["get", "password", SEED.login.name, ...as])).stdout,
      SEED.login.password,
    );
    assertEquals(
      (await bw(["get", "password", SEED.keyed.name, ...as])).stdout,
      SEED.keyed.password,
    );
    const att = `${dir}/att.txt`;
    const got = await bw([
      "get",
      "attachment",
      SEED.login.attachment.name,
      "--itemid",
      SEED.login.id,
      "--output",
      att,
      ...as,
    ]);
    assertEquals(got.code, 0, got.stderr);
    assertEquals(await Deno.readTextFile(att), SEED.login.attachment.body);
    // bw writes an item; forge's session opens it.
    const item = {
      type: 1,
      name: "made-by-bw",
      notes: null,
      login: { username: "bw-user", password: "bw-written-secret", uris: [] },
      fields: [{ type: 1, name: "pin", value: "4321" }],
    };
    const made = await bw(["create", "item", btoa(JSON.stringify(item)), ...as]);
    assertEquals(made.code, 0, made.stderr);
    const forge = new VaultSession({
      api: () => new VaultApi(vault.url, client),
      email: () => email,
      idleMs: () => 60_000,
      onLockChange: () => {},
      onRotated: () => {},
    });
    await forge.unlock({ password, code: await vault.totpNow() });
    const read = await forge.use(async (ctx) => pickItem(await ctx.items(), "made-by-bw"));
    assertEquals(read.fields.get("password"), "bw-written-secret");
    assertEquals(read.fields.get("pin"), "4321");
    // forge writes; bw reads it back after a sync.
    await forge.use(async (ctx) => {
      const target = pickItem(await ctx.items(), SEED.keyed.name);
      const body = await applyChanges(target, { password: "rotated-by-forge", note2: "x" });
      await ctx.api.writeCipher(ctx.access, target.id, body);
    });
    assertEquals((await bw(["sync", ...as])).code, 0);
    assertEquals(
      (await bw(["get", "password", SEED.keyed.name, ...as])).stdout,
      "rotated-by-forge",
    );
    forge.stop();
    // The endpoints the real client used are the ones the fake serves (no 404 on the way).
    const paths = new Set(vault.state.requests.map((r) => `${r.method} ${r.path}`));
    for (
      const want of [
        "POST /identity/accounts/prelogin/password",
        "POST /identity/connect/token",
        "GET /api/sync",
        "POST /api/accounts/key-management/user-key-id",
        "POST /api/ciphers",
        "PUT /api/ciphers/" + SEED.keyed.id,
      ]
    ) assert(paths.has(want), `no ${want} in ${[...paths].join(", ")}`);
    // A wrong code is the server's own words through bw.
    await bw(["logout"]);
    const bad = String((Number(await vault.totpNow()) + 500_000) % 1_000_000).padStart(6, "0");
    const wrong = await bw(["login", email, password, "--method", "0", "--code", bad]);
    assert(wrong.code !== 0);
    assertMatch(wrong.stderr + wrong.stdout, /Invalid TOTP code/);
  } finally {
    client.close();
    await vault.close();
    await tls.remove();
    await Deno.remove(dir, { recursive: true });
  }
});
