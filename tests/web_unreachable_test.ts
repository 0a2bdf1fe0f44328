import { chromium } from "playwright-core";
import { CHROMIUM, startWeb } from "./web_harness.ts";

// A page whose forge never answers names the address it dials and does not call it a drop: it
// was never connected. spec: The socket > Reaching it.

Deno.test({
  name: "web: a forge never reached is named by its address, not called disconnected",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // A port nothing listens on: taken from the system, then let go.
    const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const address = `ws://127.0.0.1:${(held.addr as Deno.NetAddr).port}/socket`;
    held.close();
    const web = await startWeb(address);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      await page.goto(web.url);
      await page.getByTestId("stale").getByText(`Cannot reach forge at ${address}.`).first()
        .waitFor({ timeout: 30_000 });
    } finally {
      await browser.close();
      await web.stop();
    }
  },
});
