import { assertEquals } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// "This browser" on the forges page, on a phone: the notification permission reads in words a
// person follows ("off (not asked yet)", then "on"), never the Notifications API's own values
// (`default`, `granted`), and the press that asks for it is in reach.

Deno.test({
  name: "web: a phone reads this browser's notifications in words and turns them on",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], { device: PHONE });
    const { page } = w;
    await page.goto(`${w.webUrl}#/forges`);
    const words = page.getByTestId("notify-permission");
    await words.waitFor({ timeout: 30_000 });
    assertEquals(await words.textContent(), "off (not asked yet)");
    const on = page.getByTestId("notify-on");
    await onScreen(page, on, "Turn on notifications");
    await w.shot("phone-this-browser");

    await page.context().grantPermissions(["notifications"], { origin: new URL(w.webUrl).origin });
    await on.tap();
    await words.getByText("on", { exact: true }).waitFor({ timeout: 30_000 });
    assertEquals(await on.count(), 0);
  },
});
