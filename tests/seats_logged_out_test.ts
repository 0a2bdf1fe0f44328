// Spawned tier (the real CLI): a seat whose account's config dir nobody logged into reads
// LoggedOut on home, not Idle (spec: What a subject carries > home, agents: lifecycle; the
// catalogue's lifecycle enum), and a login clears it on the next occupant. Its account's loading
// row and the project's chip leave `ready` once that seat's CLI says it holds no credential, and
// come back once a later occupant names a login (spec: home > accounts, projects > chip). The
// account here names no token, so forge's gateway stamps no credential into the CLI's
// environment: the CLI's own login in `config_dir` is what it would run on, and that dir starts
// empty.
import { AccountsWire, Chip } from "../protocol/accounts.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals } from "./assert.ts";
import {
  chatOf,
  command,
  homeLifecycle,
  seatWorld,
  subscribeSeat,
  updateOf,
} from "./seats_harness.ts";

type Row = AccountsWire["loading"][number];

/**
 * home's project chip and the account's loading row once `fits` holds: home is read, and read
 * again after each `accounts_changed` (the pool's announcement, which a chip is derived from).
 */
async function homeAccount(
  c: ForgeClient,
  fits: (chip: Chip, row: Row) => boolean,
): Promise<{ chip: Chip; row: Row }> {
  for (;;) {
    c.send({ kind: "subscribe", what: "home" });
    const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
      projects: { chip: unknown }[];
      accounts: unknown;
    };
    const chip = Chip.parse(home.projects[0].chip);
    const row = AccountsWire.parse(home.accounts).loading[0];
    if (fits(chip, row)) {
      c.send({ kind: "unsubscribe", what: "home" });
      return { chip, row };
    }
    await c.next((m) => updateOf(m, "accounts_changed") !== null, 60_000);
    c.send({ kind: "unsubscribe", what: "home" });
  }
}

Deno.test("a seat whose config dir nobody logged into reads LoggedOut until a login", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const text = await Deno.readTextFile(world.configPath);
  await Deno.writeTextFile(world.configPath, text.replace(/^token = .*\n/m, ""));
  const forge = await world.startForge();
  const c = await forge.ready();
  const lead = world.lead("alpha");
  await subscribeSeat(c, lead);
  assertEquals(await homeLifecycle(c, "alpha"), "LoggedOut");
  // Its account does not read ready over a seat that cannot run: failed, saying how to log in.
  const out = await homeAccount(c, (chip) => chip.state !== "ready");
  assertEquals(out.chip, { account_name: "Fake", state: "failed" });
  assertEquals(out.row.state, "failed");
  for (const part of ["Fake", `${world.dir}/claude`, "CLAUDE_CONFIG_DIR=", "/login"]) {
    assert(out.row.last_error?.includes(part), `"${part}" in ${out.row.last_error}`);
  }

  // Its turns end in the CLI's words about the login: the state the row names.
  command(c, "prompt", { key: lead, text: "hello", attachments: [] });
  const result = chatOf(await c.next((m) => chatOf(m)?.type === "result", 60_000))!;
  assertEquals(result.result, "Not logged in · Please run /login");
  assertEquals(await homeLifecycle(c, "alpha"), "LoggedOut");

  // A login: the config dir now holds the CLI's OAuth credentials. The next occupant's
  // `initialize` names them, and the row reads Idle again.
  await Deno.writeTextFile(
    `${world.dir}/claude/.credentials.json`,
    JSON.stringify({
      claudeAiOauth: {
        accessToken: "sk-ant-oat01-test",
        refreshToken: "sk-ant-ort01-test",
        expiresAt: Date.now() + 24 * 3_600_000,
        scopes: ["user:inference", "user:profile"],
        subscriptionType: "max",
      },
    }),
  );
  command(c, "close_session", { session_key: lead });
  await c.next((m) => updateOf(m, "released") !== null, 30_000);
  command(c, "spawn_project", { project_name: "alpha", launch_settings: {} });
  await c.next((m) => updateOf(m, "connected") !== null, 60_000);
  assertEquals(await homeLifecycle(c, "alpha"), "Idle");
  const back = await homeAccount(c, (chip) => chip.state === "ready");
  assertEquals([back.row.state, back.row.last_error], ["ready", null]);
});
