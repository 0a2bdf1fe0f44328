import { assertEquals } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// The desk tells the truth the phone tells: with dictation off on the server (home >
// dictate.enabled false) no key talks, so the composer names no push-to-talk key and says why
// Dictate is greyed in words, not only in a tooltip. spec: session > composer (bind, mode).

Deno.test({
  name: "web: with dictation off a desk names no push-to-talk key and says dictation is off",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "ptt", autoStart: true }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/ptt/lead`);
    // A turn's answer drawn: the seat's record (its composer, with the bind) is on the page.
    await page.getByTestId("composer").fill("[[script:hello]] hi");
    await page.getByTestId("send").click();
    await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor({
      timeout: 60_000,
    });
    await page.getByTestId("mic-why").waitFor();
    assertEquals(await page.getByTestId("mic-why").isVisible(), true);
    assertEquals(await page.getByTestId("mic-button").isDisabled(), true);
    assertEquals(await page.getByTestId("ptt").count(), 0);
  },
});
