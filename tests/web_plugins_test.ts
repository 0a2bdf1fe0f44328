import { assert, assertEquals, assertMatch } from "./assert.ts";
import { bumpVersion, claudeByHand, writeMarketplace } from "./plugins_fixture.ts";
import { webWorld } from "./web_harness.ts";

// The Extensions page against the REAL `claude plugin` CLI and a marketplace that is a local
// directory: installed plugins with their components, the marketplace and its health, an install
// from the page, a check, and an update whose run is drawn row by row as it streams. spec: What a
// subject carries > extensions; "The read and the frames are one shape"; "What is not here" (the
// six actions).

Deno.test({
  name: "web: plugins installed, checked and updated from the page, the run drawn as it streams",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let market = "";
    await using w = await webWorld([{ name: "p", autoStart: false }], {
      before: async (world) => {
        market = `${world.dir}/market`;
        await writeMarketplace(market, "mk", [
          { name: "alpha", version: "1.0.0", full: true },
          { name: "beta", version: "1.0.0" },
        ]);
        const cfg = `${world.dir}/claude`;
        await claudeByHand(cfg, "plugin", "marketplace", "add", market);
        await claudeByHand(cfg, "plugin", "install", "alpha@mk");
      },
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/extensions`);
    const installed = page.getByTestId("plugins-installed");
    const alpha = installed.getByTestId("plugin-alpha@mk");
    await alpha.waitFor({ timeout: 60_000 });
    assertMatch((await alpha.textContent())!, /1\.0\.0 · user/);
    assertMatch((await alpha.textContent())!, /1 skills · 1 agents · 1 commands · hooks: .* · MCP/);
    assertMatch(
      (await page.getByTestId("marketplace-mk").textContent())!,
      /mk.*· 2 plugins/,
    );

    // Install from the page: the CLI runs, its words come back, the row appears.
    await page.getByTestId("plugin-id").fill("beta@mk");
    await page.getByTestId("plugin-install").click();
    await installed.getByTestId("plugin-beta@mk").waitFor({ timeout: 120_000 });
    assert((await page.getByTestId("plugin-news").textContent())!.length > 0, "the CLI's words");

    // A check names the update; the update's run is drawn row by row as it moves.
    await bumpVersion(market, "alpha", "1.1.0");
    await page.getByTestId("plugins-check").click();
    const runAlpha = page.getByTestId("update-run").getByTestId("run-alpha@mk");
    await runAlpha.and(page.locator("[data-status=update_available]")).waitFor({
      timeout: 120_000,
    });
    await page.evaluate(`
      globalThis.__statuses = [];
      new MutationObserver(() => {
        const s = document.querySelector('[data-testid="run-alpha@mk"]')?.dataset.status;
        if (s && globalThis.__statuses.at(-1) !== s) globalThis.__statuses.push(s);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    `);
    await alpha.getByTestId("plugin-update").click();
    await runAlpha.and(page.locator("[data-status=updated]")).waitFor({ timeout: 120_000 });
    const seen = await page.evaluate("globalThis.__statuses") as string[];
    assertEquals(seen.filter((s) => s !== "update_available"), ["queued", "updating", "updated"]);
    assertMatch((await runAlpha.textContent())!, /1\.0\.0 → 1\.1\.0/);
    await alpha.getByText(/1\.1\.0 · user/).waitFor({ timeout: 60_000 });
    await w.shot("extensions");
  },
});
