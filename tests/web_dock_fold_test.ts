import { assertEquals } from "./assert.ts";
import { MCP_SCRIPT } from "./mcp_harness.ts";
import { webWorld } from "./web_harness.ts";

// On a phone a person folds the asks dock away to read the conversation and unfolds it to
// answer; the choice stands across reloads. The ask is a real one: the CLI on the fake API calls
// forge's settings tool, which parks a configuration write. spec: subscribe > answering (the
// dock draws every ask it is handed; folded, it still counts them).

Deno.test({
  name: "web: a phone folds the dock away and unfolds it; the choice survives a reload",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      script: MCP_SCRIPT,
      viewport: { width: 390, height: 844 },
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").waitFor();
    await page.getByTestId("composer").fill("[[script:set1]] set the mark");
    await page.getByTestId("send").click();
    const card = page.getByTestId("ask-settings_write");
    const fold = page.getByTestId("dock-fold");
    await card.waitFor({ timeout: 60_000 });
    assertEquals(await fold.getAttribute("aria-expanded"), "true");

    // Folded: the card goes, the head still says an ask waits.
    await fold.click();
    await card.waitFor({ state: "detached" });
    assertEquals(await fold.getAttribute("aria-expanded"), "false");
    assertEquals(await page.getByTestId("dock-count").textContent(), "1 ask waits on you");
    await w.shot("dock-folded-phone");

    // A reload keeps it folded.
    await page.reload();
    await page.getByTestId("dock-count").waitFor({ timeout: 30_000 });
    assertEquals(await fold.getAttribute("aria-expanded"), "false");
    assertEquals(await card.count(), 0);

    // Unfolded, the card is back and answerable; a reload keeps it unfolded.
    await fold.click();
    await card.waitFor();
    await page.reload();
    await card.waitFor({ timeout: 30_000 });
    assertEquals(await fold.getAttribute("aria-expanded"), "true");
    await card.getByTestId("generic-yes").click();
    await page.getByTestId("dock").waitFor({ state: "detached", timeout: 30_000 });
  },
});
