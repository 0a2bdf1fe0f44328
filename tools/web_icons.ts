/**
 * Renders the web client's icons (tools/web/icons/) from icon.svg with Chromium; the manifest's
 * PNGs are committed, so this runs only after the drawing changes:
 *
 *   tools/deno.sh run -A tools/web_icons.ts
 *
 * The drawing keeps its marks inside the middle 80%, so the same picture serves as a maskable
 * icon (a launcher crops it to its own shape).
 */
import { chromium } from "playwright-core";
import { CHROMIUM } from "../tests/web_harness.ts";

const HERE = new URL("./web/icons/", import.meta.url).pathname;
/** The PNGs the manifest and the page's head name, by size in pixels (tools/web/shell.ts). */
const ICON_SIZES = [192, 512, 180] as const;

const svg = await Deno.readTextFile(`${HERE}icon.svg`);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
try {
  for (const size of ICON_SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<body style="margin:0"><img style="display:block" width="${size}" height="${size}"
        src="data:image/svg+xml;base64,${btoa(svg)}"></body>`,
    );
    await page.screenshot({ path: `${HERE}icon-${size}.png`, omitBackground: false });
    await page.close();
    console.log(`icon-${size}.png`);
  }
} finally {
  await browser.close();
}
