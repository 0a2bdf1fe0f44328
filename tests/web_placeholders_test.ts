import { assertEquals } from "./assert.ts";
import { PHONE, webWorld } from "./web_harness.ts";

// A text box whose placeholder is how a person learns what to type must show all of it: a
// newcomer's walk found "path in the seat's tree, e" on the review, "owner/repo, a URL or a p"
// on the plugins page and "*/30 * * * * or 2027-01-0" on the board, each in a box of the
// browser's default 20 characters, the first two with their button stuck to them. Measured at a
// desk and on a phone, where nothing may be wider than the screen either.

/**
 * Each shown box whose placeholder is wider than its content box, each button stuck to its box,
 * and whether the page is wider than the screen.
 */
const CLIPPED = `(() => {
  const pen = document.createElement("canvas").getContext("2d");
  const clipped = [...document.querySelectorAll("main input[placeholder]")].flatMap((box) => {
    if (box.offsetParent === null) return [];
    const text = getComputedStyle(box, "::placeholder");
    pen.font = text.fontStyle + " " + text.fontWeight + " " + text.fontSize + " " + text.fontFamily;
    const needs = pen.measureText(box.placeholder).width;
    const own = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
    return needs > room ? [box.placeholder] : [];
  });
  // A box whose button sits on its line with no gap reads as one control.
  const touching = [...document.querySelectorAll("main input[placeholder] + button")].flatMap(
    (button) => {
      const box = button.previousElementSibling.getBoundingClientRect();
      const at = button.getBoundingClientRect();
      return at.top < box.bottom && at.left - box.right < 4 ? [button.textContent] : [];
    },
  );
  return { clipped, touching, overflow: document.documentElement.scrollWidth > innerWidth };
})()`;

const PAGES = [
  { hash: "#/seat/Acme/alpha/lead/review", ready: "doc-path" },
  { hash: "#/extensions", ready: "marketplace-source" },
  { hash: "#/board", ready: "cron-when" },
];

for (const [where, device] of [["a desk", undefined], ["a phone", PHONE]] as const) {
  Deno.test({
    name: `web: every text box shows its whole placeholder, at ${where}`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      await using w = await webWorld([{ name: "alpha" }], { device });
      const { page } = w;
      const seen: Record<string, unknown> = {};
      for (const { hash, ready } of PAGES) {
        await page.goto(`${w.webUrl}${hash}`);
        await page.getByTestId(ready).waitFor({ timeout: 60_000 });
        seen[hash] = await page.evaluate(CLIPPED);
      }
      const clean = { clipped: [], touching: [], overflow: false };
      assertEquals(seen, Object.fromEntries(PAGES.map(({ hash }) => [hash, clean])));
    },
  });
}
