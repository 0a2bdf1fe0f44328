import type { Page } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// A seat whose account's config dir nobody logged into, on a phone (spec: What a subject carries
// > home, agents: lifecycle `LoggedOut`; home > accounts): its home chip, its summary, the menu's
// row and its own header say it needs a login, in words and never the enum's CamelCase, and so
// does its account's chip rather than reading ready; its page says what to do, on screen without
// opening More; a turn's "Not logged in" does not change that, and is said once (the answer), not
// again on the turn's end line. The account names no token (as
// tests/seats_logged_out_test.ts), so the CLI runs on its own login in an empty config dir.

/** Nowhere on the page does the wire's enum show through. */
async function noEnum(page: Page, where: string): Promise<void> {
  const text = await page.locator("body").innerText();
  assert(!text.includes("LoggedOut"), `${where} reads "LoggedOut"`);
}

Deno.test({
  name: "web: a logged-out seat reads as needing a login on a phone, and says how",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      device: PHONE,
      before: async (world) => {
        const text = await Deno.readTextFile(world.configPath);
        await Deno.writeTextFile(world.configPath, text.replace(/^token = .*\n/m, ""));
      },
    });
    const { page } = w;
    await page.goto(w.webUrl);
    const row = page.getByTestId("seat-Acme/alpha/lead");
    const chip = row.locator("[data-mark=lifecycle]");
    await chip.getByText("Needs a login", { exact: true }).waitFor({ timeout: 60_000 });
    await onScreen(page, chip, "the home's chip");
    assertEquals(
      await page.getByTestId("project-alpha").getByTestId("glance-seats").textContent(),
      "1 seat: 1 Needs a login",
    );
    // Its account's chip says it too, rather than ready over a seat that cannot run.
    const accountChip = page.getByTestId("project-alpha").getByTestId("project-chip");
    await accountChip.getByText("Fake · needs a login", { exact: true }).waitFor({
      timeout: 30_000,
    });
    await noEnum(page, "home");

    await page.getByTestId("menu").tap();
    const railRow = page.getByTestId("rail-Acme/alpha/lead");
    assertEquals(await railRow.locator("[data-mark=lifecycle]").textContent(), "Needs a login");
    await onScreen(page, railRow, "the menu's row");
    await railRow.tap();

    // The seat's header says it, alone (no "idle" beside it), and the page says what to do.
    const head = page.getByTestId("seat-lifecycle");
    await head.getByText("Needs a login", { exact: true }).waitFor({ timeout: 30_000 });
    await onScreen(page, head, "the seat's chip");
    assertEquals(await page.getByTestId("turn-state").count(), 0);
    const how = page.getByTestId("seat-logged-out");
    await onScreen(page, how, "what to do");
    const words = (await how.textContent())!;
    for (const part of ["Log in account Fake", "/login", "CLAUDE_CONFIG_DIR", "Start it again"]) {
      assert(words.includes(part), `"${part}" in ${words}`);
    }
    await noEnum(page, "the seat's page");
    await w.shot("phone-logged-out");

    // A turn ends in the CLI's words; the header still says what the seat needs.
    await page.getByTestId("composer").tap();
    await page.keyboard.type("hello");
    await page.getByTestId("send").tap();
    await page.getByTestId("answer").getByText("Please run /login").waitFor({ timeout: 60_000 });
    await page.getByTestId("result").waitFor();
    await head.getByText("Needs a login", { exact: true }).waitFor();
    await how.waitFor();
    // Said once: the turn's answer, and its end line does not repeat it.
    const body = await page.locator("body").innerText();
    assertEquals(body.split("Please run /login").length - 1, 1, body);
    assertEquals((await page.getByTestId("result").textContent())!.split(" · ")[0], "ended");
  },
});
