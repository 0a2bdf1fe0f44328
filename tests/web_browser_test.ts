import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { pageServer } from "./browser_harness.ts";
import { webWorld } from "./web_harness.ts";

// The seat's Browser tab in a real browser, against a spawned forge whose browser host runs
// Debian's Chromium on a loopback test page. spec: browser_tabs, browser_view, browser_control,
// browser_input, browser_resize, browser_nav, browser_file_dialog/_answer, browser_download;
// Binary messages > 1.

const CANVAS = "[data-testid=browser-canvas]";

/** The canvas as the page's own code reads it (the tests type-check without the DOM lib). */
interface Canvas {
  width: number;
  height: number;
  clientWidth: number;
  clientHeight: number;
  dataset: Record<string, string | undefined>;
  getContext(kind: "2d"): { getImageData(...r: number[]): { data: Uint8ClampedArray } } | null;
}

/** Where the page's viewport sits in the canvas: CSS pixels per page pixel and the letterbox. */
interface Fit {
  k: number;
  ox: number;
  oy: number;
}

/**
 * Waits until the drawn frame is a settled one - its pixels have the page viewport's shape (a
 * frame captured mid-resize has not) - then reads where the letterboxed picture shows the page,
 * as the surface draws it. The page is not required to be laid out to the canvas: under load the
 * host's layout can land after the take, and a person clicks what is drawn.
 */
async function fit(page: Page): Promise<Fit> {
  await page.waitForFunction(`(c => {
    if (!c.dataset.page) return false;
    const [fw, fh] = c.dataset.frame.split("x").map(Number);
    const [pw, ph] = c.dataset.page.split("x").map(Number);
    return Math.abs(fw / fh - pw / ph) < 0.02;
  })(document.querySelector("${CANVAS}"))`);
  const box = await page.locator(CANVAS).evaluate((c: Canvas) => ({
    w: c.clientWidth,
    h: c.clientHeight,
    frame: c.dataset.frame!.split("x").map(Number),
    page: c.dataset.page!.split("x").map(Number),
  }));
  const [fw, fh] = box.frame, [pw] = box.page;
  const drawn = Math.min(box.w / fw, box.h / fh);
  return { k: drawn * fw / pw, ox: (box.w - fw * drawn) / 2, oy: (box.h - fh * drawn) / 2 };
}

/** A person's click on the picture at a point of the page's own viewport. */
async function pressAt(page: Page, x: number, y: number): Promise<void> {
  const f = await fit(page);
  await page.locator(CANVAS).click({ position: { x: f.ox + x * f.k, y: f.oy + y * f.k } });
}

/** The canvas's pixels over `css` (device rectangle; the whole canvas when null), in brief. */
const brief = (c: Canvas, css: number[] | null) => {
  const s = c.width / c.clientWidth;
  const [x, y, w, h] = css ? css.map((v) => Math.round(v * s)) : [0, 0, c.width, c.height];
  const d = c.getContext("2d")!.getImageData(x, y, w, h).data;
  let hash = 0, lit = 0;
  for (let i = 0; i < d.length; i += 4) {
    hash = (hash * 31 + d[i] + d[i + 1] * 3 + d[i + 2] * 7) >>> 0;
    if (d[i] > 200 && d[i + 1] > 200 && d[i + 2] > 200) lit++;
  }
  return { hash, lit };
};

/** A rectangle of the page's own viewport, in the canvas's CSS pixels (null: the whole). */
async function rect(
  page: Page,
  r?: { x: number; y: number; w: number; h: number },
): Promise<number[] | null> {
  const f = r ? await fit(page) : null;
  return f && r ? [f.ox + r.x * f.k, f.oy + r.y * f.k, r.w * f.k, r.h * f.k] : null;
}

/**
 * The canvas's pixels over a rectangle of the page (the whole canvas without one) in brief: a
 * hash, and how many are near white (the test page's background).
 */
async function pixels(
  page: Page,
  r?: { x: number; y: number; w: number; h: number },
): Promise<{ hash: number; lit: number }> {
  return await page.locator(CANVAS).evaluate(brief, await rect(page, r));
}

/** Waits, in the page and frame by frame, until the rectangle's hash is other than `was`. */
async function changes(
  page: Page,
  r: { x: number; y: number; w: number; h: number },
  was: number,
  state: () => Promise<string>,
): Promise<void> {
  const css = await rect(page, r);
  await page.waitForFunction(
    `(${brief})(document.querySelector(${JSON.stringify(CANVAS)}), ${JSON.stringify(css)})` +
      `.hash !== ${was}`,
    undefined,
    { timeout: 30_000 },
  ).catch(async () => {
    throw new Error(`the picture never changed: ${await state()}`);
  });
}

Deno.test({
  name:
    "web: open a page in the seat's browser, watch it drawn, take control, click, type, upload, download, go back",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using pages = pageServer();
    await using w = await webWorld([{ name: "web", autoStart: false }]);
    const { page } = w;
    const url = `${w.webUrl}#/seat/Acme/web/lead/browser`;
    await page.goto(url);

    // Nothing runs until asked; opening a URL starts the host and attaches its new tab.
    await page.getByTestId("browser-tabs").getByText("The browser is not running.").waitFor({
      timeout: 30_000,
    });
    await page.getByTestId("browser-url").fill(`${pages.url}/form`);
    await page.getByTestId("browser-open").click();
    const tab = page.locator(".browser-tab.on", { hasText: "form page" });
    await tab.waitFor({ timeout: 60_000 });
    const control = page.getByTestId("browser-control");
    await control.getByText("The agent has control").waitFor({ timeout: 30_000 });
    await page.locator(`${CANVAS}[data-seq]`).waitFor({ timeout: 30_000 });
    const watched = await pixels(page);
    assert(watched.lit > 10_000, `the page is drawn (near-white pixels: ${watched.lit})`);

    // A watcher's click goes nowhere: the page sends input only while it holds the role.
    await pressAt(page, 100, 60);

    // A second person watches the same tab: both see two viewers and who drives.
    const other = await w.browser.newPage({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    await other.goto(url);
    const otherTab = other.locator(".browser-tab", { hasText: "form page" });
    await otherTab.waitFor({ timeout: 30_000 });
    await otherTab.click();
    await page.getByTestId("browser-viewers").getByText("2 viewers").waitFor({ timeout: 30_000 });

    await page.getByTestId("browser-take").click();
    await control.getByText("You have control").waitFor({ timeout: 30_000 });
    await other.getByTestId("browser-control").getByText(/Viewer \d+ has control/).waitFor();
    assertEquals(await page.getByTestId("browser-take").textContent(), "Release control");

    // The controller's click lands on the button the picture shows; the page's "waiting" line
    // turns to "clicked" on the canvas.
    const out = { x: 20, y: 340, w: 300, h: 60 };
    const waiting = await pixels(page, out);
    await pressAt(page, 100, 60);
    await pages.event((e) => e.what === "click");
    await changes(page, out, waiting.hash, () => {
      const drawn = page.locator(CANVAS).evaluate((c: Canvas) => JSON.stringify(c.dataset));
      return drawn.then((d) => `page events ${JSON.stringify(pages.events)}; canvas ${d}`);
    });

    // Typing: a click into the input, then the person's keys.
    await pressAt(page, 150, 160);
    await page.keyboard.type("hello");
    await pages.event((e) => e.what === "input" && e.value === "hello");

    // The page's file chooser is asked of the controller; the chosen bytes reach the page.
    await pressAt(page, 60, 232);
    const chooser = page.getByTestId("browser-file-dialog");
    await chooser.waitFor({ timeout: 30_000 });
    await page.getByTestId("browser-file-input").setInputFiles({
      name: "note.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("hi from the web"),
    });
    await page.getByTestId("browser-file-send").click();
    await pages.event((e) => e.what === "file" && e.value === "note.txt:hi from the web");
    await chooser.waitFor({ state: "detached" });

    // A download reaches the controller as a save link holding the bytes.
    await pressAt(page, 40, 290);
    const link = page.getByTestId("browser-download");
    await link.waitFor({ timeout: 30_000 });
    assertEquals(await link.textContent(), "data.txt");
    await w.shot("browser");
    const [saved] = await Promise.all([page.waitForEvent("download"), link.click()]);
    assertEquals(saved.suggestedFilename(), "data.txt");
    assertEquals(await Deno.readTextFile((await saved.path())!), pages.download);

    // History: a link makes a step, back is enabled, and back enables forward.
    await pressAt(page, 40, 436);
    const back = page.locator("[data-testid=browser-back]:not([disabled])");
    await back.waitFor({ timeout: 30_000 });
    await back.click();
    await page.locator("[data-testid=browser-forward]:not([disabled])").waitFor({
      timeout: 30_000,
    });
    assert(
      await other.getByTestId("browser-back").isDisabled(),
      "a watcher's arrows stay off",
    );
    assertEquals(pages.events.filter((e) => e.what === "click").length, 1);

    // Release: the other viewer sees the role free.
    await page.getByTestId("browser-take").click();
    await other.getByTestId("browser-control").getByText("The agent has control").waitFor();

    // A dropped socket: the panel attaches its tab again and the download is still offered.
    const viewed = await page.locator(".browser-tab.on").getAttribute("data-testid");
    await page.evaluate(() =>
      (globalThis as unknown as { forgeDebug: { dropSocket(): void } }).forgeDebug.dropSocket()
    );
    await page.getByTestId("stale").waitFor();
    await page.getByTestId("stale").waitFor({ state: "detached", timeout: 30_000 });
    await page.getByTestId("browser-viewers").getByText("2 viewers").waitFor({ timeout: 30_000 });
    assertEquals(await page.locator(".browser-tab.on").getAttribute("data-testid"), viewed);
    assertEquals(await link.textContent(), "data.txt");

    // Leaving the tab detaches: the other viewer is alone.
    await page.getByRole("link", { name: "Conversation" }).click();
    await other.getByTestId("browser-viewers").getByText("1 viewer").waitFor({ timeout: 30_000 });
    await other.close();
  },
});
