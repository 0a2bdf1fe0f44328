import { assertEquals } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// The plugins page of a forge with none, on a phone (spec: What a subject carries >
// extensions): each of its sections says it is empty, where the Marketplaces heading stood over
// nothing at all, and the form that adds one is in reach.

Deno.test({
  name: "web: the plugins page says it has no plugin and no marketplace, on a phone",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha", autoStart: false }], { device: PHONE });
    const { page } = w;
    await page.goto(`${w.webUrl}#/extensions`);
    await page.getByTestId("extensions").waitFor({ timeout: 60_000 });
    await page.getByText("No plugin is installed.").waitFor();
    const none = page.getByTestId("no-marketplace");
    assertEquals(
      await none.textContent(),
      "No marketplace is added: add one below, by owner/repo, URL or path.",
    );
    await onScreen(page, none, "the marketplaces' words");
    await w.shot("phone-plugins-empty");
  },
});
