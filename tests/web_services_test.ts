import { startFakeNtfy } from "../fixtures/ntfy/mod.ts";
import { startFakeVault } from "../fixtures/vault_server/mod.ts";
import { assertEquals, assertMatch } from "./assert.ts";
import { until } from "./harness.ts";
import { command, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";
import { webWorld } from "./web_harness.ts";

// A forge's services on the forges page: a test push through a configured channel (sent, then
// refused in forge's words once the server is down), and the shared vault locked by hand once an
// agent's call opened it. docs/notify.md (notify_test); spec: What a subject carries > home
// (`vault`), Editing the config > vault (vault_lock). The real CLI on the fake Messages API;
// ntfy and the vault are their fixtures/ fakes, each speaking its service's protocol.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };
const TOPIC = "forge-web";
const SCRIPT = new URL("../fixtures/vault_server/script.json", import.meta.url).pathname;

Deno.test({
  name: "web: a test push is sent, then refused in words; the vault is locked by hand",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const ntfy = await startFakeNtfy();
    await using _ntfy = { [Symbol.asyncDispose]: () => ntfy.stop() };
    const vault = await startFakeVault({ iterations: 5000 });
    await using _vault = { [Symbol.asyncDispose]: () => vault.close() };
    await using w = await webWorld([{ name: "alpha" }], {
      script: SCRIPT,
      config: `[browser]\nenabled = false\n\n[notify]\nenabled = true\ncoalesce_secs = 0\n\n` +
        `[notify.ntfy]\nurl = "${ntfy.url}"\ntopic = "${TOPIC}"\n\n` +
        `[vault]\nenabled = true\nserver_url = "${vault.url}"\nemail = "${vault.state.email}"\n` +
        "idle_lock_minutes = 20\n",
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/forges`);
    const ntfyRow = page.getByTestId("channel-ntfy");
    await ntfyRow.getByText("ok").waitFor({ timeout: 60_000 });

    // A test push the channel takes: said sent, and the ntfy server holds it.
    await ntfyRow.getByTestId("notify-test").click();
    await ntfyRow.getByTestId("notify-test-answer").getByText("Sent.").waitFor();
    assertEquals((await ntfy.messages(TOPIC)).map((m) => m.title), ["forge: a test push"]);
    // The server down: the reply's refusal, in forge's words.
    await ntfy.stop();
    await ntfyRow.getByTestId("notify-test").click();
    const refused = ntfyRow.getByTestId("notify-test-answer").getByText("Not sent");
    await refused.waitFor({ timeout: 30_000 });
    assertMatch(
      (await refused.textContent())!,
      /^Not sent: ntfy at 127\.0\.0\.1:\d+: the connection was refused/,
    );
    await w.shot("forge-services-push-refused");

    // The vault: locked since boot until an agent's call is approved with the unlock material.
    const state = page.getByTestId("vault-state");
    assertEquals(await state.textContent(), "locked (since forge started)");
    const c = await w.forge.ready();
    await subscribeSeat(c, ALPHA, true);
    command(c, "prompt", { key: ALPHA, text: "[[script:read_pw]] get it", attachments: [] });
    const card = typedUpdateOf(
      await c.next((m) => updateOf(m, "vault_ask_pending") !== null, 90_000),
      "vault_ask_pending",
    )!;
    const code = await vault.totpNow();
    command(c, "respond_vault_ask", {
      key: ALPHA,
      id: card.id,
      answer: { approve: { unlock: { password: vault.state.password, code } } },
    });
    await c.next((m) => updateOf(m, "vault_ask_resolved") !== null, 90_000);
    // The row reads the home when it is drawn: the forges page shown again says open.
    await page.goto(`${w.webUrl}#/`);
    await page.goto(`${w.webUrl}#/forges`);
    await state.getByText("open; it locks after 20 idle minutes").waitFor();
    await page.getByTestId("vault-lock").click();
    await state.getByText("locked (locked by hand)").waitFor();
    // Locked for every reader, not only on this page.
    await until(
      async () => {
        c.send({ kind: "subscribe", what: "home" });
        const home = await c.next((m) => m.kind === "snapshot" && m.subject === "home");
        c.send({ kind: "unsubscribe", what: "home" });
        const row = (home.data as { vault: { locked: boolean; lock_reason: string } }).vault;
        return row.locked && row.lock_reason === "vault_lock";
      },
      10_000,
      "home's vault row locked by vault_lock",
    );
    await w.shot("forge-services-vault-locked");
  },
});
