import type { Page } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { PHONE, webWorld } from "./web_harness.ts";
import { pngSize, sideways } from "./web_pwa_support.ts";

// The page on a phone (docs/web.md "On a phone"): at 390 x 844 with touch every page is one
// column and nothing scrolls sideways; a seat is opened, a permission ask read (its question in
// sight over its answers) and answered and a prompt sent with taps, the dock and the composer at
// the thumb's foot, the composer still in view when the keyboard takes the lower screen, the
// session's presses behind More. Installable: the manifest reads without an error and names a
// standalone app and its icons, the service worker keeps the shell, and the page opens with no
// network, saying so and naming the forge it cannot reach.

/** A phone's keyboard takes about this much of the screen; the page's viewport shrinks by it. */
const KEYBOARD_PX = 336;

async function onePage(page: Page, where: string): Promise<void> {
  assertEquals(await sideways(page), [], `${where} scrolls sideways`);
}

/**
 * Every answer of the ask on screen is whole inside the dock's visible box and the screen,
 * none hidden below the dock's fold: a thumb reaches each without scrolling for it.
 */
async function answersInView(page: Page): Promise<string[]> {
  const dock = (await page.getByTestId("dock").boundingBox())!;
  const { height } = page.viewportSize()!;
  const answers = await page.getByTestId("ask-permission").locator(".ask-actions button").all();
  const names: string[] = [];
  for (const answer of answers) {
    const box = (await answer.boundingBox())!;
    const name = (await answer.textContent())!;
    names.push(name);
    assert(box.y >= dock.y && box.y + box.height <= dock.y + dock.height, `${name} below the fold`);
    assert(box.y + box.height <= height, `${name} off the screen`);
  }
  return names;
}

/**
 * The ask's question is whole in the dock's visible box, under the dock's head and above its
 * answers, and nothing is drawn over it: what is being allowed is read where it is answered.
 */
async function questionInView(page: Page): Promise<void> {
  const question = page.getByTestId("ask-permission").locator(".ask-title");
  const box = (await question.boundingBox())!;
  const head = (await page.getByTestId("dock-count").boundingBox())!;
  const first = (await page.getByTestId("option-allow_once").boundingBox())!;
  assert(box.y >= head.y + head.height, `the question at ${box.y} is under the dock's head`);
  assert(box.y + box.height <= first.y, `the question ends at ${box.y + box.height}, under Allow`);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const hit = await page.evaluate(
    `document.elementFromPoint(${x}, ${y})?.closest(".ask-title")?.textContent ?? null`,
  );
  assertEquals(hit, await question.textContent(), "something is drawn over the question");
}

/** The box of an element is inside the screen, its top past `from` of the screen's height. */
async function inThumbReach(page: Page, testId: string, from: number): Promise<void> {
  const box = (await page.getByTestId(testId).first().boundingBox())!;
  const { height } = page.viewportSize()!;
  assert(box.y >= height * from && box.y + box.height <= height, `${testId} at ${box.y}`);
}

Deno.test({
  name: "web: a phone opens a seat, answers an ask and prompts with taps; installs; opens offline",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }, { name: "beta", autoStart: false }], {
      device: PHONE,
    });
    const { page } = w;
    await page.goto(w.webUrl);
    await page.getByTestId("seat-Acme/alpha/lead").getByText("Idle").waitFor({ timeout: 60_000 });
    await onePage(page, "home");
    await w.shot("phone-home");

    // The rail folds into a bar: a tap opens it, a tap on a seat opens the seat.
    await page.getByTestId("menu").tap();
    await page.getByTestId("rail-Acme/alpha/lead").tap();
    await page.getByTestId("composer").tap();
    // The script's phrases, not its markers: the docs show these shots.
    await page.keyboard.type("Create allowed.txt here");
    await page.getByTestId("send").tap();
    const ask = page.getByTestId("ask-permission");
    await ask.waitFor({ timeout: 60_000 });
    await onePage(page, "a seat with an ask");
    // The answers and the composer sit in the lower part of the screen, under the thumb.
    await inThumbReach(page, "option-allow_once", 0.33);
    await inThumbReach(page, "composer", 0.5);
    const answers = await answersInView(page);
    await questionInView(page);
    for (const name of ["Allow", "Deny", "Tell Claude what to do instead"]) {
      assert(answers.includes(name), `${name} in ${answers}`);
    }
    await w.shot("phone-ask");
    await ask.getByTestId("option-allow_once").tap();
    await ask.waitFor({ state: "detached", timeout: 30_000 });
    await page.getByTestId("result").first().waitFor({ timeout: 60_000 });
    await Deno.stat(`${w.world.projectDir("alpha")}/allowed.txt`);

    // The keyboard up: the page's viewport shrinks (interactive-widget=resizes-content) and the
    // composer stays above it; a prompt typed and sent with a tap streams its answer.
    await page.setViewportSize({ width: 390, height: 844 - KEYBOARD_PX });
    await page.getByTestId("composer").tap();
    await inThumbReach(page, "composer", 0.3);
    await page.keyboard.type("Count to sixteen for me, slowly");
    await page.getByTestId("send").tap();
    await page.getByTestId("result").nth(1).waitFor({ timeout: 60_000 });
    await page.setViewportSize(PHONE.viewport);
    await onePage(page, "a seat after its turns");
    await w.shot("phone-seat");

    // The seat's session presses fold behind More; the question Stop asks first fits the screen,
    // and keeping the session sends nothing.
    await page.getByTestId("seat-more").tap();
    await page.getByTestId("seat-stop").tap();
    const asking = page.getByTestId("seat-stop-asking");
    await asking.waitFor();
    await onePage(page, "a seat asking before it stops");
    await asking.getByText("Keep it").tap();
    await page.getByTestId("seat-stop").waitFor();
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor();
    await page.getByTestId("seat-more").tap();

    // Every page, one column.
    const pages: [string, string][] = [
      ["seat/Acme/alpha/lead/review", "review"],
      ["seat/Acme/alpha/lead/terminal", "terminal"],
      ["seat/Acme/alpha/lead/browser", "browser"],
      ["seat/Acme/beta/lead", "seat"],
      ["board", "board-page"],
      ["usage", "usage"],
      ["settings", "settings"],
      ["extensions", "extensions"],
      // Dictation is off here: the page draws the server's words for why there are no models.
      ["models", "models-refused"],
      ["forges", "forges-page"],
      ["", "home"],
    ];
    for (const [path, testId] of pages) {
      await page.goto(`${w.webUrl}#/${path}`);
      await page.getByTestId(testId).waitFor({ timeout: 30_000 });
      await onePage(page, `#/${path}`);
    }
    await page.getByTestId("menu").tap();
    await onePage(page, "the open menu");
    await w.shot("phone-menu");

    // Installable: Chromium reads the manifest with no error and finds nothing missing to
    // install it but a normal window (a test context is a private one, which never installs).
    const origin = new URL(w.webUrl).origin;
    const cdp = await page.context().newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    assertEquals(manifest.errors, []);
    const app = JSON.parse(manifest.data!);
    assertEquals([app.display, app.start_url, app.name], ["standalone", "/", "forge"]);
    const installability = await cdp.send("Page.getInstallabilityErrors");
    assertEquals(
      installability.installabilityErrors.filter((e) => e.errorId !== "in-incognito"),
      [],
    );
    for (const icon of app.icons as { src: string; sizes: string; type: string }[]) {
      const bytes = new Uint8Array(await (await fetch(`${origin}${icon.src}`)).arrayBuffer());
      const size = pngSize(bytes);
      assertEquals(`${size?.width}x${size?.height}`, icon.sizes, icon.src);
      assertEquals(icon.type, "image/png");
    }
    // The service worker keeps the shell: registered at the root and active.
    const worker = await page.evaluate(
      `navigator.serviceWorker.ready.then((r) => [r.scope, r.active.state])`,
    );
    assertEquals(worker, [`${origin}/`, "activated"]);
    // Its own session goes before the network does: an attached one keeps the page online.
    await cdp.detach();

    // No network: the page opens from what the worker kept, says it is offline and which forge
    // it cannot reach; the network back, it reaches forge again.
    await page.context().setOffline(true);
    await page.reload();
    const offline = page.getByTestId("offline");

    await offline.getByText(new URL(w.forge.url).host).waitFor({ timeout: 30_000 });
    assert((await offline.textContent())!.includes("You are offline"));
    await page.getByTestId("stale").waitFor();
    assertEquals(await page.getByText("Reading the fleet").count(), 0, "no fleet is being read");
    await onePage(page, "the page offline");
    await w.shot("phone-offline");
    await page.context().setOffline(false);
    await offline.waitFor({ state: "detached" });
    await page.getByTestId("seat-Acme/alpha/lead").waitFor({ timeout: 30_000 });
  },
});
