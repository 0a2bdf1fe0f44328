import { AccountsWire } from "../../protocol/accounts.ts";
import { fieldsOf, type SessionUpdate, type Slot } from "../../protocol/mod.ts";
import { type ScriptInput, startFakeApi } from "../../fixtures/fake_api/mod.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import { CORE_AREAS } from "../config/core_areas.ts";
import { loadConfigText } from "../config/load.ts";
import { memoryLogger } from "../log.ts";
import { catalogueAreas } from "../registry.ts";
import { StateKeeper } from "../state/keeper.ts";
import { Gateway } from "./gateway.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
const SLOT: Slot = { org: "Acme", project: "p", label: "lead" };

/** Two accounts on two fakes: A the org's own, B its fallback; short clocks. */
async function world(a: ScriptInput, b: ScriptInput = {}, extra = "", stateDir?: string) {
  const apiA = await startFakeApi(a);
  const apiB = await startFakeApi(b);
  // A 3 s cooldown: long enough that a loaded machine still sees it, short enough to wait out.
  const text =
    `[gateway]\nstreak_count = 2\nstreak_window_secs = 30\nno_reset_cooldown_secs = 3\n` +
    `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\ntoken = "sk-a"\nbase_url = "${apiA.url}"\n` +
    `[[accounts]]\ndisplay_name = "B"\nprovider = "anthropic"\ntoken = "sk-b"\nbase_url = "${apiB.url}"\n` +
    extra +
    `[[orgs]]\nname = "Acme"\naccounts = ["A"]\nfallback_accounts = ["B"]\n` +
    `[[orgs.projects]]\nname = "p"\npath = "/tmp"\n`;
  const { config } = loadConfigText(text, "/tmp/forge.toml", areas);
  const updates: SessionUpdate[] = [];
  const gateway = new Gateway({
    log: memoryLogger(),
    config: () => config,
    emit: (u) => updates.push(u),
    port: 0,
    stateDir,
    keeper: stateDir ? new StateKeeper(memoryLogger()) : undefined,
  });
  await gateway.start();
  const project = config.orgs[0].projects[0];
  return {
    gateway,
    updates,
    apiA,
    apiB,
    project,
    async [Symbol.asyncDispose]() {
      await gateway.stop();
      await apiA.close();
      await apiB.close();
    },
  };
}

function post(baseUrl: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "forge-gateway", ...headers },
    body: JSON.stringify(body),
  });
}

const MSG = { model: "m", max_tokens: 100, tools: [{ name: "t" }], messages: [] };

async function until(cond: () => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("gateway: a seat's request reaches its account's upstream with that account's credential, bytes unchanged", async () => {
  await using w = await world({ replies: [{ content: [{ type: "text", text: "hi" }] }] });
  await until(() => w.gateway.pool.settled(), "the probes");
  const launch = w.gateway.launch(SLOT, w.project)!;
  assertEquals(launch.account.display_name, "A");
  const body = { ...MSG, messages: [{ role: "user", content: "héllo ✓" }] };
  const res = await post(launch.baseUrl, body, { "anthropic-beta": "x-1" });
  assertEquals(res.status, 200);
  const text = await res.json();
  assertEquals(text.content[0].text, "hi");
  const seen = w.apiA.requests.find((r) => r.kind === "main")!;
  assertEquals(seen.credential, "x-api-key sk-a"); // the placeholder never goes upstream
  assertEquals(seen.path, "/v1/messages");
  assertEquals(seen.query, "?beta=true");
  assertEquals(seen.headers["anthropic-beta"], "x-1");
  assertEquals(seen.body, body);
  assertEquals(w.apiB.requests.filter((r) => r.kind === "main").length, 0);
});

Deno.test("gateway: an unknown route is refused without reaching any upstream", async () => {
  await using w = await world({});
  const port = w.gateway.listener().port;
  const res = await post(`http://127.0.0.1:${port}/seat/${"0".repeat(32)}`, MSG);
  assertEquals(res.status, 404);
  assert((await res.json()).error.message.includes("no seat is routed here"));
  assertEquals(w.apiA.requests.filter((r) => r.path === "/v1/messages").length, 0);
  // A routed seat's non-API path is answered here, never forwarded with the credential.
  const launch = w.gateway.launch(SLOT, w.project)!;
  const hello = await fetch(`${launch.baseUrl}/api/hello`);
  assertEquals(hello.status, 404);
  await hello.body?.cancel();
  assertEquals(w.apiA.requests.filter((r) => r.path === "/api/hello").length, 0);
});

Deno.test("gateway: SSE passes through event by event, not buffered", async () => {
  const slow = {
    content: [{ type: "text" as const, text: "abcdefghij" }],
    chunk_chars: 1,
    chunk_delay_ms: 120,
  };
  await using w = await world({ replies: [slow] });
  const launch = w.gateway.launch(SLOT, w.project)!;
  const res = await post(launch.baseUrl, { ...MSG, stream: true });
  const reader = res.body!.getReader();
  let reads = 0;
  let text = "";
  const dec = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    reads++;
    text += dec.decode(value, { stream: true });
  }
  // Ten deltas paced 120 ms apart: a buffering gateway would hand them over in one read at the
  // end (a loaded machine may still join a neighbouring pair in one read). What the gateway adds
  // to the first byte and the stream is `tools/deno.sh task bench gateway`'s figure.
  assert(reads >= 6, `only ${reads} reads`);
  assertEquals((text.match(/text_delta/g) ?? []).length, 10);
});

Deno.test("gateway: a 429 streak cools the account and the seat's next request goes to the fallback; the cooldown ends", async () => {
  const limited = { error: { status: 429, type: "rate_limit_error", message: "slow" } };
  await using w = await world({ replies: [limited, limited] }, {
    replies: [{ content: [{ type: "text", text: "from B" }] }],
  });
  await until(() => w.gateway.pool.settled(), "the probes");
  const launch = w.gateway.launch(SLOT, w.project)!;
  assertEquals((await post(launch.baseUrl, MSG)).status, 429);
  assert(!w.gateway.pool.get("A")!.clock.cooling(Date.now()), "one 429 is not a streak");
  const second = await post(launch.baseUrl, MSG);
  assertEquals(second.status, 429); // answered as the upstream answered
  await second.body?.cancel();
  const wire = AccountsWire.parse(w.gateway.wire());
  const rowA = wire.orgs[0].rows.find((r) => r.display_name === "A")!;
  assert(rowA.cooling && rowA.unusable !== null);
  assertEquals(w.gateway.projectRow(w.project).chip, { account_name: "B", state: "ready" });
  const third = await post(launch.baseUrl, MSG);
  assertEquals((await third.json()).content[0].text, "from B");
  assertEquals(w.apiB.mainRequests()[0].credential, "x-api-key sk-b");
  const notice = w.updates.find((u) => u.name === "notice");
  assert(String(notice?.fields?.text).includes("from account A to B"), JSON.stringify(notice));
  assert(
    w.updates.some((u) => u.name === "forge_account_identity" && u.fields?.display_name === "B"),
  );
  // no_reset_cooldown_secs = 3: A is ready again and the chip goes back to it.
  await until(() => !w.gateway.pool.get("A")!.clock.cooling(Date.now()), "the cooldown");
  await until(
    () => w.gateway.projectRow(w.project).chip?.account_name === "A",
    "the chip to move back",
  );
  // ...and the cooldown's end is announced: home hears A is no longer cooling.
  const coolRow = (u: SessionUpdate) =>
    AccountsWire.parse(fieldsOf(u, "accounts_changed")!.accounts).orgs[0].rows.find((r) =>
      r.display_name === "A"
    )!;
  await until(() => {
    const frames = w.updates.filter((u) => u.name === "accounts_changed");
    const cooled = frames.findIndex((u) => coolRow(u).cooling);
    return cooled >= 0 && frames.slice(cooled).some((u) => !coolRow(u).cooling);
  }, "accounts_changed with A cooling, then not");
});

Deno.test("gateway: a 429 naming its reset cools the account until that reset", async () => {
  const limited = {
    error: { status: 429, type: "rate_limit_error", message: "slow", reset_in_secs: 30 },
  };
  await using w = await world({ replies: [limited, limited] });
  const launch = w.gateway.launch(SLOT, w.project)!;
  const before = Date.now();
  for (let i = 0; i < 2; i++) await (await post(launch.baseUrl, MSG)).body?.cancel();
  const until_ = w.gateway.pool.get("A")!.clock.until!;
  assert(
    until_ >= before + 28_000 && until_ <= Date.now() + 31_000,
    `until ${new Date(until_).toISOString()}`,
  );
});

Deno.test("gateway: a 401 is auth_required on the seat, not a rotation", async () => {
  const refused = { error: { status: 401, type: "authentication_error", message: "bad key" } };
  await using w = await world({ replies: [refused] });
  const launch = w.gateway.launch(SLOT, w.project)!;
  assertEquals((await post(launch.baseUrl, MSG)).status, 401);
  const auth = w.updates.find((u) => u.name === "auth_required")!;
  assertEquals(auth.fields?.key, SLOT);
  assertEquals(auth.fields?.method_name, "A");
  assert(!w.gateway.pool.get("A")!.clock.cooling(Date.now()));
  assertEquals(w.gateway.pool.binding(SLOT)?.account, "A");
});

Deno.test("gateway: rate-limit headers become the account's cached usage and at_cap", async () => {
  const headers = {
    "anthropic-ratelimit-unified-status": "allowed",
    "anthropic-ratelimit-unified-5h-utilization": "1.0",
    "anthropic-ratelimit-unified-5h-reset": "{now+600}",
    "anthropic-ratelimit-unified-7d-utilization": "0.25",
    "anthropic-ratelimit-unified-7d-reset": "{now+86400}",
  };
  await using w = await world({ headers });
  const launch = w.gateway.launch(SLOT, w.project)!;
  await (await post(launch.baseUrl, MSG)).body?.cancel();
  const usage = w.gateway.wire().usage.find((u) => u.display_name === "A")!.snapshot!;
  assertEquals(usage.windows.map((x) => [x.name, x.utilization]), [["5h", 1], ["7d", 0.25]]);
  assert(usage.windows[0].resets_at! > Date.now() + 590_000);
  assertEquals(w.gateway.projectRow(w.project).chip, { account_name: "A", state: "at_cap" });
});

Deno.test("gateway: a token account that its upstream refuses fails its probe, in words", async () => {
  await using w = await world({}, {}, "");
  await until(() => w.gateway.pool.settled(), "the probes");
  assertEquals(w.gateway.wire().loading.map((l) => l.state), ["ready", "ready"]);
  const dead = `[[accounts]]\ndisplay_name = "X"\nprovider = "anthropic"\ntoken = "k"\n` +
    `base_url = "http://127.0.0.1:9"\n`;
  await using w2 = await world({}, {}, dead);
  await until(() => w2.gateway.pool.settled(), "the probes");
  const x = w2.gateway.wire().loading.find((l) => l.display_name === "X")!;
  assertEquals(x.state, "failed");
  assert(x.last_error!.includes("could not be reached"), x.last_error!);
});

Deno.test("gateway: a taken port is a bind_error, a launch refuses in words, a reload binds", async () => {
  await using w = await world({});
  const port = w.gateway.listener().port;
  const text = `[gateway]\nport = ${port}\n[[accounts]]\ndisplay_name = "A"\n` +
    `provider = "anthropic"\ntoken = "k"\n[[orgs]]\nname = "Acme"\naccounts = ["A"]\n` +
    `[[orgs.projects]]\nname = "p"\npath = "/tmp"\n`;
  const { config } = loadConfigText(text, "/tmp/forge.toml", areas);
  const log = memoryLogger();
  const second = new Gateway({ log, config: () => config, emit: () => {} });
  await second.start();
  try {
    const wire = second.wire().gateway;
    assertEquals([wire.ready, wire.port], [false, port]);
    assert(wire.bind_error!.includes(`port ${port} is taken`), wire.bind_error!);
    // One bind tried at boot, one refusal logged.
    const failed = () => log.records.filter((r) => r.event === "gateway_bind_failed").length;
    assertEquals(failed(), 1);
    let refused = "";
    try {
      second.launch(SLOT, config.orgs[0].projects[0]);
    } catch (err) {
      refused = (err as Error).message;
    }
    assert(refused.startsWith("the account gateway is not listening"), refused);
    // The port freed, the next reload's sync binds it.
    await w.gateway.stop();
    second.sync();
    await until(() => second.listener().ready, "the listener to bind at the reload");
    assertEquals(second.listener(), { ready: true, port, bind_error: null });
  } finally {
    await second.stop();
  }
});

Deno.test("gateway: an account at its cap is announced ready again when the window resets", async () => {
  const headers = {
    "anthropic-ratelimit-unified-5h-utilization": "1",
    "anthropic-ratelimit-unified-5h-reset": "{now+2}",
  };
  await using w = await world({ headers });
  const launch = w.gateway.launch(SLOT, w.project)!;
  await (await post(launch.baseUrl, MSG)).body?.cancel();
  const rowA = (u: SessionUpdate) =>
    AccountsWire.parse(fieldsOf(u, "accounts_changed")!.accounts).orgs[0].rows.find((r) =>
      r.display_name === "A"
    )!;
  await until(() => {
    const frames = w.updates.filter((u) => u.name === "accounts_changed");
    const capped = frames.findIndex((u) => rowA(u).at_cap);
    return capped >= 0 && frames.slice(capped).some((u) => !rowA(u).at_cap);
  }, "accounts_changed with A at its cap, then not");
});

Deno.test("gateway: each account's usage is cached across a restart; the request ledger names the account", async () => {
  const stateDir = await Deno.makeTempDir({ prefix: "forge-gateway-state-" });
  const headers = {
    "anthropic-ratelimit-unified-7d-utilization": "0.5",
    "anthropic-ratelimit-unified-7d-reset": "{now+86400}",
  };
  {
    await using w = await world({ headers }, {}, "", stateDir);
    const launch = w.gateway.launch(SLOT, w.project)!;
    await (await post(launch.baseUrl, MSG)).body?.cancel();
    const ledger = await w.gateway.requestAccounts();
    const requestId = [...ledger.keys()][0];
    assert(requestId?.startsWith("req_fake"), String(requestId));
    assertEquals(ledger.get(requestId!), "A");
  }
  {
    await using again = await world({}, {}, "", stateDir);
    const usage = again.gateway.wire().usage.find((u) => u.display_name === "A")!.snapshot;
    assertEquals(usage?.windows.map((x) => [x.name, x.utilization]), [["7d", 0.5]]);
  }
  await Deno.remove(stateDir, { recursive: true });
});

Deno.test("gateway: a config with no accounts binds nothing until a reload adds one", async () => {
  const { config: none } = loadConfigText(`[gateway]\nport = 0\n`, "/tmp/forge.toml", areas);
  let config = none;
  const gateway = new Gateway({ log: memoryLogger(), config: () => config, emit: () => {} });
  await gateway.start();
  try {
    assertEquals(gateway.listener(), { ready: false, port: 0, bind_error: null });
    const text = `[gateway]\nport = 0\n[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\n` +
      `token = "k"\nbase_url = "http://127.0.0.1:9"\n`;
    config = loadConfigText(text, "/tmp/forge.toml", areas).config;
    gateway.sync();
    await until(() => gateway.listener().ready, "the listener to bind");
    assert(gateway.listener().port > 0);
  } finally {
    await gateway.stop();
  }
});
