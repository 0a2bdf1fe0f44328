import { startFakeVault } from "../fixtures/vault_server/mod.ts";
import { assertEquals } from "./assert.ts";
import { command } from "./seats_harness.ts";
import { webWorld } from "./web_harness.ts";

// The vault card in the dock: an agent's vault read parks, a wrong two-step code is refused in
// forge's words on the page's notice strip with the card still there, the right one unlocks and
// approves, and the forges page locks the vault by hand. Then refusals the page's doors can meet,
// each said on the notice strip in forge's words: an MCP operation on a seat that is not running,
// a close of a terminal that is not the seat's, and vault_lock on a forge whose vault is off.
// The real CLI on the fake Messages API; the vault is fixtures/' Bitwarden-compatible fake.
// spec: Editing the config > vault (vault_ask, respond_vault_ask with unlock material,
// vault_lock); What a client receives > error; terminal_close; reconnect_mcp_server.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };
const SCRIPT = new URL("../fixtures/vault_server/script.json", import.meta.url).pathname;

Deno.test({
  name: "web: the vault card unlocks and approves; refusals are said on the notice strip",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const vault = await startFakeVault({ iterations: 5000 });
    await using _vault = { [Symbol.asyncDispose]: () => vault.close() };
    const vaultToml = (on: boolean) =>
      `[vault]\nenabled = ${on}\nserver_url = "${vault.url}"\nemail = "${vault.state.email}"\n` +
      "idle_lock_minutes = 20\n";
    await using w = await webWorld([{ name: "alpha" }], {
      script: SCRIPT,
      config: `[browser]\nenabled = false\n\n${vaultToml(true)}`,
    });
    const { page } = w;
    const notices = page.getByTestId("notices");
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").waitFor();
    await page.getByTestId("composer").fill("[[script:read_pw]] get it");
    await page.getByTestId("send").click();
    const card = page.getByTestId("ask-vault_ask");
    await card.waitFor({ timeout: 90_000 });

    // A wrong code: refused in forge's words, the card stays parked.
    const good = await vault.totpNow();
    const bad = String((Number(good) + 500_000) % 1_000_000).padStart(6, "0");
    await card.getByPlaceholder("Master password").fill(vault.state.password);
    await card.getByPlaceholder("2FA code").fill(bad);
    await card.getByText("Unlock and approve").click();
    await notices.getByText(/the vault did not unlock: the two-step code was not accepted/)
      .waitFor({ timeout: 30_000 });
    assertEquals(await card.count(), 1);
    await w.shot("vault-card-refused");

    // The right code unlocks and approves: the card leaves and the agent's turn ends.
    await card.getByPlaceholder("2FA code").fill(await vault.totpNow());
    await card.getByText("Unlock and approve").click();
    await card.waitFor({ state: "detached", timeout: 60_000 });
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });

    // Locked by hand from the forges page.
    await page.goto(`${w.webUrl}#/forges`);
    const state = page.getByTestId("vault-state");
    await state.getByText("open; it locks after 20 idle minutes").waitFor({ timeout: 30_000 });
    await page.getByTestId("vault-lock").click();
    await state.getByText("locked (locked by hand)").waitFor({ timeout: 30_000 });

    // The MCP panel's Reconnect on a seat whose process is gone: forge refuses, and says so.
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    const forgeServer = page.getByTestId("mcp").getByTestId("mcp-forge");
    await forgeServer.waitFor({ state: "attached", timeout: 60_000 });
    const c = await w.forge.ready();
    command(c, "close_session", { session_key: ALPHA });
    await page.getByTestId("seat-lifecycle").getByText("Sleeping").waitFor({ timeout: 60_000 });
    // The panel folds while every server is connected: opened, whatever it was.
    await page.evaluate(`document.querySelector("[data-testid=mcp]").open = true`);
    await forgeServer.getByText("Reconnect").click();
    const noSession = "Acme/alpha/lead: the seat has no session (nothing occupies it)";
    await notices.getByText(`reconnect_mcp_server: ${noSession}`).waitFor({ timeout: 30_000 });
    await forgeServer.getByText("Disable").click();
    await notices.getByText(`toggle_mcp_server: ${noSession}`).waitFor({ timeout: 30_000 });
    await w.shot("mcp-refused");

    // A close of a terminal that is not the seat's (a page holding an id the seat has moved
    // past): sent as the close door sends it, with the attached id moved on by one.
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead/terminal`);
    await page.getByTestId("terminal-control").getByText("The agent has control").waitFor({
      timeout: 30_000,
    });
    const id = await page.evaluate(`(() => {
      const c = globalThis.forgeDebug.client;
      const t = c.state.terminal;
      c.send({ kind: "terminal_close", seat: t.seat, id: t.id + 1 });
      return t.id;
    })()`) as number;
    await notices.getByText(
      `terminal_close: terminal ${id + 1} is not seat Acme/alpha/lead's terminal: ` +
        `its terminal is ${id}`,
    ).waitFor({ timeout: 30_000 });
    // The shell is still drawn: a refused close closes nothing.
    assertEquals(await page.getByTestId("terminal-closed").count(), 0);

    // vault_lock on a forge whose vault is off: forge names the switch that turned it off.
    const toml = await Deno.readTextFile(w.world.configPath);
    await Deno.writeTextFile(w.world.configPath, toml.replace(vaultToml(true), vaultToml(false)));
    await w.restartForge();
    await page.goto(`${w.webUrl}#/forges`);
    await page.getByTestId("stale").waitFor({ state: "detached", timeout: 60_000 });
    await page.waitForFunction("globalThis.forgeDebug.client.state.home?.vault === null");
    await page.evaluate(`globalThis.forgeDebug.client.command("vault_lock", null)`);
    await notices.getByText(
      "vault_lock: the vault subsystem is turned off by vault.enabled in forge.toml",
    ).waitFor({ timeout: 30_000 });
    await w.shot("vault-lock-refused");
  },
});
