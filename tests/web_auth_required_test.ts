import { assert, assertEquals } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// A seat whose upstream refuses its credential, on a phone (spec: auth_required; home > agents:
// lifecycle `AuthRequired`): its header and home chip read "Login refused", never the enum, and
// the page says what fixes it once, in the sign-in box, not again in the notices under it.

const REFUSED = "upstream refused its credential";

Deno.test({
  name: 'web: a refused credential reads "Login refused" and is said once, on a phone',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      device: PHONE,
      script: () => ({
        named: { refuse: [{ error: { status: 401, type: "authentication_error" } }] },
      }),
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").tap();
    await page.keyboard.type("[[script:refuse]] hello");
    await page.getByTestId("send").tap();
    const box = page.getByTestId("sign-in-needed");
    await box.getByText(REFUSED, { exact: false }).waitFor({ timeout: 60_000 });
    await onScreen(page, box, "the sign-in box");
    const head = page.getByTestId("seat-lifecycle");
    await head.getByText("Login refused", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByTestId("result").first().waitFor({ timeout: 60_000 });
    const body = await page.locator("body").innerText();
    assertEquals(body.split(REFUSED).length - 1, 1, `said more than once:\n${body}`);
    assertEquals(
      await page.getByTestId("seat-notices").locator("summary").textContent(),
      "1 notice",
    );
    assert(!body.includes("AuthRequired"), "the seat reads the enum");
    await w.shot("phone-login-refused");

    await page.goto(w.webUrl);
    const chip = page.getByTestId("seat-Acme/alpha/lead").locator("[data-mark=lifecycle]");
    await chip.getByText("Login refused", { exact: true }).waitFor({ timeout: 30_000 });
    await onScreen(page, chip, "the home's chip");
  },
});
