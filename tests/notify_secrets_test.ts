// Spawned tier: forge with [vault] on the Bitwarden-compatible fake (HTTPS, a throwaway CA the
// launcher trusts through DENO_CERT) and pushes on through the fake ntfy and Gotify servers
// (each its own process). An agent's vault read parks; its push names the item and nothing
// else. Approved, the agent types the password it got into a Bash command, which asks: that
// push says the command with the password taken out. docs/notify.md "What a push says": no
// token, password, code or field value in any channel, nor in any line of forge.log.
import { SEED, startFakeVault } from "../fixtures/vault_server/mod.ts";
import { makeTestTls } from "../fixtures/vault_server/tls.ts";
import type { PermissionOutcome } from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { until } from "./harness.ts";
import { GOTIFY_APP_TOKEN, nextAsk, notifyWorld, NTFY_TOKEN, TOPIC } from "./notify_harness.ts";
import { toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";

/** The agent reads the vault's password, then uses it in a command (as an agent would). */
const NAMED = {
  read_then_use: [
    {
      content: [{
        type: "tool_use",
        name: "mcp__forge__vault__read",
        input: { item: SEED.login.name, field: "password" },
      }],
    },
    {
      content: [{
        type: "tool_use",
        name: "Bash",
        input: {
          command: `mysql --user=app --password='${SEED.login.password}' prod`,
          description: "connect",
        },
      }],
    },
    { content: [{ type: "text", text: "connected" }] },
  ],
};
const DENY: PermissionOutcome = {
  outcome: "selected",
  option_id: "deny",
  action: { kind: "deny" },
};

Deno.test({
  name: "a vault ask's push names the item; no planted secret is in any push or log line",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tls = await makeTestTls();
  const vault = await startFakeVault({ tls: { cert: tls.cert, key: tls.key } });
  try {
    await using w = await notifyWorld({
      named: NAMED,
      extra:
        `\n[vault]\nenabled = true\nserver_url = "${vault.url}"\nemail = "${vault.state.email}"\n`,
    });
    const inherited = Deno.env.get("NODE_EXTRA_CA_CERTS");
    const bundle = `${w.world.dir}/trust.pem`;
    await Deno.writeTextFile(
      bundle,
      `${inherited ? await Deno.readTextFile(inherited) : ""}\n${tls.ca}`,
    );
    const forge = await w.world.startForge({ DENO_CERT: bundle, NODE_EXTRA_CA_CERTS: bundle });
    const alpha = w.world.lead("alpha");
    const a = await forge.ready();
    await subscribeSeat(a, alpha, true);
    command(a, "prompt", { key: alpha, text: "[[script:read_then_use]] connect", attachments: [] });
    const card = typedUpdateOf(
      await a.next((m) => updateOf(m, "vault_ask_pending") !== null, 90_000),
      "vault_ask_pending",
    )!;
    await until(async () => (await w.ntfy.messages(TOPIC)).length > 0, 30_000, "the vault push");
    const [push] = await w.ntfy.messages(TOPIC);
    assertEquals([push.title, push.message], [
      "alpha/lead needs you",
      `vault: read ${SEED.login.name}`,
    ]);

    // The person approves with the master password and a code: the agent gets the field.
    const code = await vault.totpNow();
    command(a, "respond_vault_ask", {
      key: alpha,
      id: card.id,
      answer: { approve: { unlock: { password: vault.state.password, code } } },
    });
    const bash = await nextAsk(a, alpha);
    await until(async () => (await w.ntfy.messages(TOPIC)).length > 1, 30_000, "the Bash push");
    assertEquals(
      (await w.ntfy.messages(TOPIC))[1].message,
      "Bash: mysql --user=app --password='•••' prod",
    );
    command(a, "respond_permission", { key: alpha, tool_id: bash.tool_id, outcome: DENY });
    const turn = await untilResult(a, 90_000);
    assertEquals(toolResultsOf(turn)[0], { text: SEED.login.password, isError: false });
    await until(async () => (await w.gotifyMessages()).length > 1, 30_000, "the Gotify pushes");

    const secrets = [
      vault.state.password,
      SEED.login.password,
      SEED.login.field.value,
      `"${code}"`,
      NTFY_TOKEN,
      GOTIFY_APP_TOKEN,
    ];
    const pushes = JSON.stringify([await w.ntfy.messages(TOPIC), await w.gotifyMessages()]);
    const log = await Deno.readTextFile(`${w.world.dir}/forge/forge.log`);
    assert(log.includes('"event":"notify_sent"'), "the sends are logged");
    for (const s of secrets) {
      assert(!pushes.includes(s), `a push holds a planted secret (${s.slice(0, 3)}...)`);
      assert(!log.includes(s), `forge.log holds a planted secret (${s.slice(0, 3)}...)`);
    }
  } finally {
    await vault.close();
  }
});
