// A `config_dir` account whose seats' CLI holds no login leaves `ready` (spec: What a subject
// carries > home, accounts: loading state per account; What a client receives > update, the
// account pool paragraph): a seat's `initialize` that names no credential fails the account in
// words that say which folder and how to log in, `accounts_changed` says so, and a seat that
// names one, or a re-probe that finds a login written since, makes it ready again.
import { AccountsWire } from "../../protocol/accounts.ts";
import type { SessionUpdate, Slot } from "../../protocol/mod.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import { CORE_AREAS } from "../config/core_areas.ts";
import { loadConfigText } from "../config/load.ts";
import { memoryLogger } from "../log.ts";
import { catalogueAreas } from "../registry.ts";
import { Alarms } from "./alarms.ts";
import { Gateway } from "./gateway.ts";
import { CREDENTIALS_FILE } from "./login.ts";
import { AccountPool } from "./pool.ts";
import { Prober } from "./prober.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
const SLOT: Slot = { org: "Acme", project: "p", label: "lead" };
const NONE = { tokenSource: "none", apiProvider: "firstParty" };
const LOGIN = { subscriptionType: "Claude Max", apiProvider: "firstParty" };

/** One `config_dir` account "Mine" on a fresh folder, and a `token` one "Key" (no upstream). */
function configText(dir: string, orgAccounts: string) {
  return `[[accounts]]\ndisplay_name = "Mine"\nprovider = "anthropic"\nconfig_dir = "${dir}"\n` +
    `[[accounts]]\ndisplay_name = "Key"\nprovider = "anthropic"\ntoken = "sk-k"\n` +
    `base_url = "http://127.0.0.1:9"\n` +
    `[[orgs]]\nname = "Acme"\naccounts = [${orgAccounts}]\n` +
    `[[orgs.projects]]\nname = "p"\npath = "/tmp"\n`;
}

/** The `accounts_changed` frames a gateway emitted, and a wait for the first one that fits. */
function announcements() {
  const waiters: { fits: (a: AccountsWire) => boolean; done: (a: AccountsWire) => void }[] = [];
  const emit = (u: SessionUpdate) => {
    if (u.name !== "accounts_changed") return;
    const accounts = AccountsWire.parse(u.fields.accounts);
    for (const w of waiters.filter((w) => w.fits(accounts))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.done(accounts);
    }
  };
  /** The first announcement from now that fits; a wait that sees none in 20 s fails, named. */
  const next = (fits: (a: AccountsWire) => boolean, what: string) =>
    new Promise<AccountsWire>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no accounts_changed with ${what}`)), 20_000);
      waiters.push({ fits, done: (a) => (clearTimeout(timer), done(a)) });
    });
  return { emit, next };
}

const mine = (a: AccountsWire) => a.loading.find((l) => l.display_name === "Mine")!;

Deno.test("gateway: a seat's CLI with no login fails its config_dir account; one naming a login brings it back", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-login-" });
  const { config } = loadConfigText(configText(dir, `"Mine"`), "/tmp/forge.toml", areas);
  const heard = announcements();
  const gateway = new Gateway({
    log: memoryLogger(),
    config: () => config,
    emit: heard.emit,
    port: 0,
  });
  try {
    const ready = heard.next((a) => mine(a).state === "ready", "Mine ready");
    await gateway.start();
    await ready;
    const project = config.orgs[0].projects[0];
    assertEquals(gateway.projectRow(project).chip, { account_name: "Mine", state: "ready" });

    gateway.launch(SLOT, project);
    const failed = heard.next((a) => mine(a).state === "failed", "Mine failed");
    await gateway.connected(SLOT, NONE);
    const row = mine(await failed);
    assertEquals(row.kind, "config_dir");
    for (const part of ["Mine", dir, `CLAUDE_CONFIG_DIR=${dir}`, "/login", "not logged in"]) {
      assert(row.last_error!.includes(part), `"${part}" in ${row.last_error}`);
    }
    assert(row.retry_after !== null, "a failed account names its next probe");
    // home's chip says it, and the org's only account is still where its next seat goes: the
    // seat that will log in has an account to start under.
    assertEquals(gateway.projectRow(project), {
      would_bind: false,
      chip: { account_name: "Mine", state: "failed" },
    });
    assertEquals(gateway.launch(SLOT, project)?.account.display_name, "Mine");

    const back = heard.next((a) => mine(a).state === "ready", "Mine ready again");
    await gateway.connected(SLOT, LOGIN);
    assertEquals(mine(await back).last_error, null);
    assertEquals(gateway.projectRow(project).chip, { account_name: "Mine", state: "ready" });
  } finally {
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gateway: a token seat, or a CLI that says nothing of its login, leaves the account as it was", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-login-" });
  const { config } = loadConfigText(configText(dir, `"Key", "Mine"`), "/tmp/forge.toml", areas);
  const heard = announcements();
  const gateway = new Gateway({
    log: memoryLogger(),
    config: () => config,
    emit: heard.emit,
    port: 0,
  });
  try {
    await gateway.start();
    const pool = gateway.pool;
    // Key's probe reaches nothing: it fails, and the org's next seat binds Mine.
    await heard.next((a) => a.all_loaded, "every probe answered");
    const project = config.orgs[0].projects[0];
    assertEquals(gateway.launch(SLOT, project)?.account.display_name, "Mine");
    // A cloud provider's answer (and an older CLI's, with none) says nothing forge can judge.
    await gateway.connected(SLOT, { tokenSource: "none", apiProvider: "bedrock" });
    await gateway.connected(SLOT, null);
    assertEquals(pool.get("Mine")!.state, "ready");
    // A seat under the token account reports no credential of its own: the gateway supplies it,
    // so the CLI's answer does not judge the account.
    pool.get("Key")!.state = "ready";
    const other: Slot = { ...SLOT, label: "w1" };
    assertEquals(gateway.launch(other, project)?.account.display_name, "Key");
    await gateway.connected(other, NONE);
    assertEquals(pool.get("Key")!.state, "ready");
    assertEquals(pool.get("Mine")!.state, "ready");
  } finally {
    await gateway.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A pool of the one `config_dir` account, ready, with a prober whose announcements resolve. */
function proberWorld(dir: string) {
  const { config } = loadConfigText(configText(dir, `"Mine"`), "/tmp/forge.toml", areas);
  const pool = new AccountPool();
  pool.sync(config);
  const account = pool.get("Mine")!;
  account.state = "ready";
  const alarms = new Alarms();
  let wake = () => {};
  const prober = new Prober({
    pool,
    alarms,
    log: memoryLogger(),
    claudeDir: dir,
    now: Date.now,
    announce: () => wake(),
  });
  /** Runs `act` and waits for the announcement it causes. */
  const announced = (act: () => void) => {
    const heard = new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error("the prober announced nothing")), 20_000);
      wake = () => (clearTimeout(timer), done());
    });
    act();
    return heard;
  };
  return { pool, account, prober, alarms, announced };
}

Deno.test("prober: a logged-out account's re-probe counts only a login written into its folder since", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-login-" });
  const w = proberWorld(dir);
  try {
    await w.announced(() => w.prober.loggedOut(w.account));
    assertEquals(w.account.state, "failed");
    // The folder is there, as at the first probe, but holds no login yet: still failed.
    await w.announced(() => w.prober.start(w.account));
    assertEquals(w.account.state, "failed");
    assert(w.account.lastError!.includes("/login"), w.account.lastError!);

    // `claude` with CLAUDE_CONFIG_DIR=<dir> and /login writes the CLI's credentials file.
    await Deno.writeTextFile(`${dir}/${CREDENTIALS_FILE}`, "{}");
    await w.announced(() => w.prober.start(w.account));
    assertEquals([w.account.state, w.account.lastError, w.account.loggedOut], [
      "ready",
      null,
      null,
    ]);

    // A seat finds no login although the file is there (one the CLI cannot use): the file it
    // found proves nothing at the next probe; only a new one does.
    await w.announced(() => w.prober.loggedOut(w.account));
    await w.announced(() => w.prober.start(w.account));
    assertEquals(w.account.state, "failed");
    const later = new Date(Date.now() + 60_000);
    await Deno.utime(`${dir}/${CREDENTIALS_FILE}`, later, later);
    await w.announced(() => w.prober.start(w.account));
    assertEquals(w.account.state, "ready");
  } finally {
    w.alarms.clear();
    await w.prober.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
