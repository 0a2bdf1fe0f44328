import type { Locator, Page } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { childrenOf, commandOf, cwdOf } from "./seats_harness.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// A seat's row on home, on a phone (spec: What a subject carries > home, agents): its name is
// a thumb's target (a seat is opened from it), and a seat that failed says why once, not once
// beside its mark and again after it. A seat's page heads with its whole name, however long
// its project's: wrapped, never cut off, and no "idle" beside a seat with no turn to run. The
// lists behind its More, and a forge's pages on the forges page, are thumb-sized targets too.

const LONG = "a-project-whose-name-runs-long";

/** A thumb's target: on the screen and at least 40 px high. */
async function atLeast(page: Page, what: Locator, name: string): Promise<void> {
  await onScreen(page, what, name);
  const box = (await what.boundingBox())!;
  assert(box.height >= 40, `${name} is ${box.height} px high`);
}

Deno.test({
  name: "web: on a phone a home row's seat is a thumb's target and a failure is said once",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }, { name: LONG, autoStart: false }], {
      device: PHONE,
    });
    const { page } = w;
    await page.goto(w.webUrl);
    const row = page.getByTestId("seat-Acme/alpha/lead");
    await row.getByText("Idle").waitFor({ timeout: 60_000 });
    const name = row.getByRole("link", { name: "lead" });
    await onScreen(page, name, "the seat's name");
    const box = (await name.boundingBox())!;
    assert(box.width >= 40 && box.height >= 40, `the seat's name is ${box.width}x${box.height}`);
    await name.tap();
    await page.getByTestId("seat-lifecycle").waitFor({ timeout: 30_000 });

    // Its CLI killed, the seat fails; home's row says why, once.
    const cli = childrenOf(w.forge.serverPid()).find((p) =>
      cwdOf(p) === w.world.projectDir("alpha") && commandOf(p).includes("claude")
    );
    assert(cli, "alpha's CLI is a child of forge");
    Deno.kill(cli, "SIGKILL");
    await page.goto(w.webUrl);
    await row.getByText("Failed").waitFor({ timeout: 30_000 });
    await row.getByText(/^claude exited/).filter({ visible: true }).first().waitFor();
    const said = (await row.innerText()).match(/claude exited/g) ?? [];
    assertEquals(said.length, 1, `the reason in ${await row.innerText()}`);
    await onScreen(page, row.getByTestId("start-alpha"), "Restart");
    await w.shot("phone-home-failed");

    // A long name, whole, beside its state and its presses.
    await page.goto(`${w.webUrl}#/seat/Acme/${LONG}/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Sleeping").waitFor({ timeout: 30_000 });
    const title = page.getByRole("heading", { level: 1 });
    assertEquals(await title.innerText().then((t) => t.replaceAll("\n", "")), `Acme/${LONG}/lead`);
    await onScreen(page, title, "the seat's name");
    assert(
      await title.evaluate((el) => el.scrollWidth <= el.clientWidth),
      "the seat's name is cut off",
    );
    await onScreen(page, page.getByTestId("seat-start"), "Start");
    // Beside Sleeping and Start, no turn word: "idle" there read as a word about Start.
    assertEquals(await page.getByTestId("turn-state").count(), 0);
    await w.shot("phone-long-name");

    // Behind More, a lead's workers open with a thumb; on the forges page, a forge's pages.
    await page.getByTestId("seat-more").tap();
    const workers = page.getByTestId("workers").locator("summary");
    await atLeast(page, workers, "Workers");
    await workers.tap();
    await page.getByTestId("workers").locator("input").first().waitFor();
    await page.goto(`${w.webUrl}#/forges`);
    const links = page.locator(".forge-pages a");
    await links.first().waitFor({ timeout: 30_000 });
    for (const link of await links.all()) await atLeast(page, link, (await link.textContent())!);
  },
});
