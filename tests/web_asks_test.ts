import { assert, assertMatch } from "./assert.ts";
import { MCP_SCRIPT } from "./mcp_harness.ts";
import { texts, webWorld } from "./web_harness.ts";

// Asks a subsystem parks, answered from the page's dock: a configuration write (drawn from its
// `request` by the generic card, answered with the protocol's own respond_settings_write) and a
// document hand-off (opened with document_read, answered with answer_document_hand_off). The real
// CLI calls forge's tools on the fake API; a write approved onto a read-only forge.toml is said
// on the seat in forge's words. spec: subscribe > answering; session > pending_asks; Editing the
// config (settings_write_pending, the write resolved after its effect); answer_document_hand_off.

Deno.test({
  name: "web: a settings write and a document hand-off are answered from the dock",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], { script: MCP_SCRIPT });
    await Deno.writeTextFile(`${w.world.projectDir("alpha")}/plan.md`, "# Plan\n\nShip it.\n");
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").waitFor();

    // A configuration write: the generic card draws its request and approves it.
    await page.getByTestId("composer").fill("[[script:set1]] set the mark");
    await page.getByTestId("send").click();
    const write = page.getByTestId("ask-settings_write");
    await write.waitFor({ timeout: 60_000 });
    assert((await write.textContent())!.includes("client.mark"));
    await w.shot("dock-settings-write");
    await write.getByTestId("generic-yes").click();
    await write.waitFor({ state: "detached", timeout: 30_000 });
    await page.getByTestId("result").first().waitFor({ timeout: 60_000 });
    assertMatch(await Deno.readTextFile(w.world.configPath), /\[client\]\nmark = "klin"/);

    // Approved, but forge.toml was made read-only meanwhile: the card leaves, and the seat says
    // why in forge's words rather than looking done (forge's `failure` on the `_resolved`).
    await Deno.chmod(w.world.configPath, 0o444);
    await page.getByTestId("composer").fill("[[script:set2]] set it again");
    await page.getByTestId("send").click();
    await write.waitFor({ timeout: 60_000 });
    await write.getByTestId("generic-yes").click();
    await write.waitFor({ state: "detached", timeout: 30_000 });
    const failed = page.getByTestId("seat-notice").filter({ hasText: "settings_write: " });
    await failed.waitFor({ timeout: 30_000 });
    assertMatch(
      (await failed.textContent())!,
      /settings_write: settings__set: the person approved, but the write was refused \(io\): .*forge\.toml is read-only/,
    );
    await Deno.chmod(w.world.configPath, 0o644);
    await page.getByTestId("result").nth(1).waitFor({ timeout: 60_000 });
    assertMatch(await Deno.readTextFile(w.world.configPath), /mark = "klin"/);

    // A document hand-off: open it, read it, approve it with a note.
    await page.getByTestId("composer").fill("[[script:doc]] hand me the plan");
    await page.getByTestId("send").click();
    const handOff = page.getByTestId("ask-document_hand_off");
    await handOff.waitFor({ timeout: 60_000 });
    assert((await handOff.textContent())!.includes("please read the plan"));
    await handOff.getByTestId("handoff-open").click();
    await handOff.getByTestId("handed-document").getByText("Ship it.").waitFor();
    await handOff.getByPlaceholder("Your note (optional)").fill("looks right");
    await handOff.getByTestId("handoff-approve").click();
    await handOff.waitFor({ state: "detached", timeout: 30_000 });
    await page.getByTestId("result").nth(2).waitFor({ timeout: 60_000 });
    const outputs = (await texts(page, "[data-testid=tool-out]")).join("\n");
    assertMatch(outputs, /approved/);
  },
});
