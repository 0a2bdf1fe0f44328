import { assert } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// Settings on a phone (spec: Editing the config): a yes/no key's box sits under its name, at
// the row's left, and is big enough to tap; it was a 13 px box floating mid-row, read as
// belonging to nothing. A tap on it marks the key changed.

Deno.test({
  name: "web: a phone's settings draw a yes/no key's box under its name, tappable",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha", autoStart: false }], { device: PHONE });
    const { page } = w;
    await page.goto(`${w.webUrl}#/settings`);
    const row = page.getByTestId("key-server.enabled");
    await row.waitFor({ timeout: 30_000 });
    const box = row.locator("input[type=checkbox]");
    await onScreen(page, box, "the box");
    const name = (await row.locator("label").boundingBox())!;
    const at = (await box.boundingBox())!;
    assert(Math.abs(at.x - name.x) <= 4, `the box at x ${at.x}, its name at ${name.x}`);
    assert(at.width >= 24 && at.height >= 24, `the box is ${at.width}x${at.height}`);
    await box.tap();
    await page.locator('[data-testid="key-server.enabled"].dirty').waitFor();
    await w.shot("phone-settings-bool");
  },
});
