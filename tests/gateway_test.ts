// Spawned tier: `deno task start` runs forge as a process under the launcher's permissions; its
// seat runs the real claude CLI whose base URL is forge's account gateway; two fake Messages APIs
// (in this process) stand in for two accounts' upstreams. spec: home > accounts, projects
// (would_bind, chip); What a client receives > update (the account pool paragraph); the
// original's updates accounts_changed, status_snapshot, forge_account_identity and auth_required,
// and its [gateway] keys.
import {
  AccountsWire,
  AuthRequired,
  ForgeAccountIdentity,
  OauthCredentialsSnapshot,
  SeatAccount,
  StatusSnapshot,
} from "../protocol/accounts.ts";
import { startFakeApi } from "../fixtures/fake_api/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals } from "./assert.ts";
import { chatOf, command, subscribeSeat, updateOf } from "./seats_harness.ts";
import { spawnForge } from "./spawned.ts";

type Msg = Record<string, unknown>;
const has = (name: string) => (m: Msg) => updateOf(m, name) !== null;
const LEAD = { org: "Acme", project: "p", label: "lead" };

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
/** A 429 the CLI retries (no reset named: the cooldown is no_reset_cooldown_secs). */
const limited = {
  error: { status: 429, type: "rate_limit_error", message: "slow down", retry: true },
};

async function homeChip(c: ForgeClient): Promise<Msg> {
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
  c.send({ kind: "unsubscribe", what: "home" });
  return (home.projects as Msg[])[0];
}

async function turn(c: ForgeClient, prompt: string): Promise<{ frames: Msg[] }> {
  command(c, "prompt", { key: LEAD, text: prompt, attachments: [] });
  const frames: Msg[] = [];
  for (;;) {
    const m = await c.next((f) => f.kind === "update", 60_000);
    frames.push(m);
    if (chatOf(m)?.type === "result") return { frames };
  }
}

Deno.test("the gateway: credential, streaming, a 429 streak rotates to the fallback and cools, a 401 is auth_required", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-gateway-" }));
  for (const sub of ["p", "home", "tmp", "claude"]) await Deno.mkdir(`${dir}/${sub}`);
  const usage = {
    "anthropic-ratelimit-unified-status": "allowed",
    "anthropic-ratelimit-unified-5h-utilization": "0.42",
    "anthropic-ratelimit-unified-5h-reset": "{now+3600}",
  };
  // A streams the first turn slowly, then rate-limits; it answers the last turn with a 401.
  await using apiA = await fakes({
    headers: usage,
    replies: [
      { ...text("abcdefghijklmnop"), chunk_chars: 2, chunk_delay_ms: 150 },
      limited,
      limited,
      { error: { status: 401, type: "authentication_error", message: "invalid x-api-key" } },
    ],
  });
  await using apiB = await fakes({ replies: [text("from B")] });
  const config = `[server]\nbind = "127.0.0.1"\n` +
    `[gateway]\nstreak_count = 2\nstreak_window_secs = 30\nno_reset_cooldown_secs = 5\n` +
    `[env]\nCLAUDE_CODE_MAX_RETRIES = "3"\nCLAUDE_CODE_TMPDIR = "${dir}/tmp"\nHOME = "${dir}/home"\n` +
    account("A", "sk-gw-a", apiA.url, dir) + account("B", "sk-gw-b", apiB.url, dir) +
    `[[orgs]]\nname = "Acme"\naccounts = ["A"]\nfallback_accounts = ["B"]\n` +
    `[[orgs.projects]]\nname = "p"\npath = "${dir}/p"\nauto_start = true\n`;
  await using forge = await spawnForge(config, { HOME: `${dir}/home` });
  const c = await forge.connect();
  await c.next((m) => m.kind === "settings");
  await subscribeSeat(c, LEAD, true);
  // The session subject says which account the seat runs under, and what the CLI said of its auth.
  c.send({ kind: "subscribe", what: { session: LEAD } });
  const snap = (await c.next((m) => m.kind === "snapshot" && m.subject !== "home")).data as Msg;
  const seatAccount = SeatAccount.parse(snap.account)!;
  assertEquals([seatAccount.display_name, seatAccount.kind], ["A", "token"]);
  assert(seatAccount.cli !== null && typeof seatAccount.cli.apiProvider === "string");

  // --- 1. the seat's CLI holds no token; its requests reach A with A's credential ----------
  const tree = updateOf(await c.next(has("processes_changed"), 10_000), "processes_changed")!
    .snapshot as { pid: number };
  const environ = Deno.readTextFileSync(`/proc/${tree.pid}/environ`).split("\0");
  const cmdline = Deno.readTextFileSync(`/proc/${tree.pid}/cmdline`);
  assert(!environ.some((v) => v.includes("sk-gw-")), "no account token in the CLI's environment");
  assert(!cmdline.includes("sk-gw-"), "no account token in the CLI's argv");
  const base = environ.find((v) => v.startsWith("ANTHROPIC_BASE_URL="))!;
  assert(/^ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/seat\/[0-9a-f]{32}$/.test(base), base);
  assert(!environ.some((v) => v.startsWith("ANTHROPIC_API_KEY=")));

  // --- 2. a streamed turn arrives token by token -----------------------------------------
  const first = await turn(c, "stream to me");
  const deltas = first.frames.map((m) => ({ f: chatOf(m) })).filter(({ f }) =>
    f?.type === "stream_event" && ((f.event as Msg).delta as Msg | undefined)?.type === "text_delta"
  );
  assertEquals(
    deltas.map(({ f }) => ((f!.event as Msg).delta as Msg).text).join(""),
    "abcdefghijklmnop",
  );
  // Eight deltas paced 150 ms apart by the upstream: through an unbuffered gateway they cross
  // as separate frames, not as one lump at its end.
  assert(deltas.length >= 6, `only ${deltas.length} delta frames`);
  assertEquals(apiA.mainRequests()[0].credential, "x-api-key sk-gw-a");
  assertEquals(apiA.mainRequests()[0].path, "/v1/messages");

  // --- 3. two 429s put A in cooldown; the CLI's retry lands on B, mid-session ------------
  const second = await turn(c, "rate limit me");
  assertEquals(chatOf(second.frames.at(-1)!)!.result, "from B");
  assertEquals(apiB.mainRequests().length, 1);
  assertEquals(apiB.mainRequests()[0].credential, "x-api-key sk-gw-b");
  const moved = second.frames.map((m) => updateOf(m, "notice")).find((n) =>
    String(n?.text).includes("from account A to B")
  );
  assert(moved, "a notice in the seat's stream says it moved");
  const identity = second.frames.map((m) => updateOf(m, "forge_account_identity")).find(Boolean)!;
  assertEquals(ForgeAccountIdentity.parse(identity).display_name, "B");
  const status = second.frames.map((m) => updateOf(m, "status_snapshot")).find(Boolean)!;
  assertEquals(StatusSnapshot.parse(status).forge_account, { display_name: "B", kind: "token" });
  const chipped = await homeChip(c);
  assertEquals(chipped.chip, { account_name: "B", state: "ready" });
  assertEquals(chipped.would_bind, true);
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
  const pool = AccountsWire.parse(home.accounts);
  assert(pool.gateway.ready && pool.gateway.port > 0 && pool.all_loaded);
  const rowA = pool.orgs[0].rows.find((r) => r.display_name === "A")!;
  assert(rowA.cooling && rowA.cooling_until !== null, "home shows A cooling");
  const usageA = pool.usage.find((u) => u.display_name === "A")!.snapshot!;
  assertEquals(usageA.windows[0].utilization, 0.42);

  // --- 4. the cooldown ends: A is ready again and the chip goes back ----------------------
  const cooled = await c.next((m) => {
    const u = updateOf(m, "accounts_changed");
    if (!u) return false;
    const row = AccountsWire.parse(u.accounts).orgs[0].rows.find((r) => r.display_name === "A");
    return row !== undefined && !row.cooling;
  }, 20_000);
  assert(cooled);
  assertEquals((await homeChip(c)).chip, { account_name: "A", state: "ready" });

  // --- 5. the seat goes back to its primary, whose upstream refuses: auth_required --------
  const third = await turn(c, "who am i");
  const auth = AuthRequired.parse(
    third.frames.map((m) => updateOf(m, "auth_required")).find(Boolean),
  );
  assertEquals(auth.key, LEAD);
  assertEquals(auth.method_name, "A");
  assertEquals(apiA.mainRequests().at(-1)!.credential, "x-api-key sk-gw-a");
  c.send({ kind: "subscribe", what: "home" });
  const refusedHome = (await c.next((m) => m.kind === "snapshot" && m.subject === "home"))
    .data as { agents: Msg[] };
  const row = refusedHome.agents.find((a) => JSON.stringify(a.slot) === JSON.stringify(LEAD))!;
  assertEquals(row.lifecycle, "AuthRequired");
  const after = AccountsWire.parse(await poolNow(c));
  assert(!after.orgs[0].rows.find((r) => r.display_name === "A")!.cooling, "a 401 is no rotation");

  // --- 6. the usage subject attributes each message to the account that answered it ------
  c.send({ kind: "subscribe", what: "usage" });
  const usageSnap = (await c.next((m) => m.kind === "snapshot" && m.subject === "usage", 30_000))
    .data as { lifetime: { by_account: { name: string; messages: number }[] } };
  const byAccount = Object.fromEntries(
    usageSnap.lifetime.by_account.map((r) => [r.name, r.messages]),
  );
  assertEquals(byAccount.A, 1, JSON.stringify(byAccount));
  assertEquals(byAccount.B, 1, JSON.stringify(byAccount));
  await Deno.remove(dir, { recursive: true });
});

async function poolNow(c: ForgeClient): Promise<unknown> {
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
  return home.accounts;
}

function account(name: string, token: string, url: string, dir: string): string {
  return `[[accounts]]\ndisplay_name = "${name}"\nprovider = "anthropic"\ntoken = "${token}"\n` +
    `base_url = "${url}"\nconfig_dir = "${dir}/claude"\nmodels = ["claude-sonnet-4-5"]\n`;
}

async function fakes(script: Parameters<typeof startFakeApi>[0]) {
  const api = await startFakeApi(script);
  return Object.assign(api, { [Symbol.asyncDispose]: () => api.close() });
}

Deno.test("the gateway: a config_dir account forwards the CLI's own login unchanged, and rotates to a token account", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-gateway-" }));
  for (const sub of ["p", "home", "tmp", "login"]) await Deno.mkdir(`${dir}/${sub}`);
  // The CLI's own OAuth login, as `claude login` leaves it in the config dir.
  const expiresAt = Date.now() + 86_400_000;
  await Deno.writeTextFile(
    `${dir}/login/.credentials.json`,
    JSON.stringify({
      claudeAiOauth: {
        accessToken: "sk-ant-oat01-gw-login",
        refreshToken: "sk-ant-ort01-gw-refresh",
        expiresAt,
        scopes: ["user:inference"],
        subscriptionType: "max",
      },
    }),
  );
  await using apiA = await fakes({ replies: [text("own login"), limited, limited] });
  await using apiB = await fakes({ replies: [text("token fallback")] });
  const config = `[server]\nbind = "127.0.0.1"\n` +
    `[gateway]\nstreak_count = 2\nstreak_window_secs = 30\nno_reset_cooldown_secs = 30\n` +
    `[env]\nCLAUDE_CODE_MAX_RETRIES = "3"\nCLAUDE_CODE_TMPDIR = "${dir}/tmp"\nHOME = "${dir}/home"\n` +
    `[[accounts]]\ndisplay_name = "Login"\nprovider = "anthropic"\nbase_url = "${apiA.url}"\n` +
    `config_dir = "${dir}/login"\nmodels = ["claude-sonnet-4-5"]\n` +
    account("B", "sk-gw-b", apiB.url, `${dir}/login`) +
    `[[orgs]]\nname = "Acme"\naccounts = ["Login"]\nfallback_accounts = ["B"]\n` +
    `[[orgs.projects]]\nname = "p"\npath = "${dir}/p"\nauto_start = false\n`;
  await using forge = await spawnForge(config, { HOME: `${dir}/home` });
  const c = await forge.connect();
  await c.next((m) => m.kind === "settings");
  // The seat is woken only once this client holds it: `oauth_credentials_snapshot` is told once,
  // when the seat connects, so a subscriber must be there to hear it. A client that comes later
  // reads the same facts off the session snapshot's `account`.
  c.send({ kind: "subscribe", what: { session: LEAD }, answering: true });
  await c.next((m) => m.kind === "snapshot" && m.subject !== "home");
  command(c, "spawn_project", { project_name: "p", launch_settings: {} });
  await c.next(has("connected"), 60_000);
  const oauth = OauthCredentialsSnapshot.parse(updateOf(
    await c.next(has("oauth_credentials_snapshot"), 10_000),
    "oauth_credentials_snapshot",
  ));
  // The login's facts cross; its tokens never do.
  const login = { subscription_type: "max", scopes: ["user:inference"], expires_at: expiresAt };
  assertEquals(oauth.credentials, login);
  const late = await forge.connect();
  await late.next((m) => m.kind === "settings");
  const lateSnap = await subscribeSeat(late, LEAD);
  assertEquals(SeatAccount.parse(lateSnap.account)!.credentials, login);
  assert(!JSON.stringify(lateSnap).includes("sk-ant-"), "no token in a late subscriber's read");
  const tree = updateOf(await c.next(has("processes_changed"), 10_000), "processes_changed")!
    .snapshot as { pid: number };
  const environ = Deno.readTextFileSync(`/proc/${tree.pid}/environ`).split("\0");
  assert(
    !environ.some((v) => v.startsWith("ANTHROPIC_AUTH_TOKEN=")),
    "no placeholder over a login",
  );
  assert(environ.includes(`CLAUDE_CONFIG_DIR=${dir}/login`));

  const first = await turn(c, "who answers");
  assertEquals(chatOf(first.frames.at(-1)!)!.result, "own login");
  assertEquals(apiA.mainRequests()[0].credential, "bearer sk-ant-oat01-gw-login");

  const second = await turn(c, "rate limit me");
  assertEquals(chatOf(second.frames.at(-1)!)!.result, "token fallback");
  assertEquals(apiB.mainRequests()[0].credential, "x-api-key sk-gw-b", "B's token, not the login");
  await Deno.remove(dir, { recursive: true });
});
