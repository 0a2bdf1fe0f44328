import { assert, assertEquals } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// The phone's bar counts the seats waiting on the person and says so (spec: home > agents,
// pending): beside a seat's dock that counts its asks, "1 seat waits on you" over "2 asks wait
// on you" reads as two counts of two things, where "1 waiting" over "2 asks" read as a
// contradiction. A tap on it goes home, where the seat's row says what waits.

Deno.test({
  name: "web: a phone's bar counts the seats waiting, in words, and takes a tap home",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], { device: PHONE });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").tap();
    await page.keyboard.type("[[script:ask]] pick for me");
    await page.getByTestId("send").tap();
    await page.getByTestId("dock-count").getByText("2 asks wait on you").waitFor({
      timeout: 60_000,
    });
    const bar = page.getByTestId("rail-waiting");
    await bar.getByText("1 seat waits on you", { exact: true }).waitFor({ timeout: 30_000 });
    await onScreen(page, bar, "the bar's count");
    const mine = (await bar.boundingBox())!;
    const menu = (await page.getByTestId("menu").boundingBox())!;
    assert(mine.x + mine.width <= menu.x, "the count runs under Menu");
    await w.shot("phone-bar-waiting");

    await bar.tap();
    const row = page.getByTestId("seat-Acme/alpha/lead");
    await row.getByText("waiting on you: question (+1)").waitFor({ timeout: 30_000 });
    assertEquals(await bar.textContent(), "1 seat waits on you");
  },
});
