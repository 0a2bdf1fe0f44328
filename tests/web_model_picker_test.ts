import { assertEquals } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// spec: session > header (model: the catalogue row the resolved id matches). The CLI's catalogue
// has `default` and `opus` resolve to one id; a turn's init frame names that bare id, and the
// picker must stay on the row the header named, not move to the first row resolving to it.

Deno.test({
  name: "web: the model picker names the same row before and after a turn",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "pick", autoStart: true }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/pick/lead`);
    const picker = page.getByTestId("model-picker");
    // The header's model, once the occupant has answered `initialize`.
    await page.waitForFunction(
      `document.querySelector('[data-testid=model-picker]')?.value`,
      undefined,
      { timeout: 60_000 },
    );
    const before = await picker.inputValue();
    await page.getByTestId("composer").fill("[[script:hello]] hi");
    await page.getByTestId("send").click();
    await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor({
      timeout: 60_000,
    });
    assertEquals(await picker.inputValue(), before);
    // A reload reads the header again: the same row.
    await page.reload();
    await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor();
    assertEquals(await picker.inputValue(), before);
    console.log(`model picker: ${before}`);
  },
});
