import { assertEquals } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// A prompt pressed while the socket is down is not lost: the composer keeps the words and says
// they were not sent; once the socket is back, Enter sends them. spec: The socket > Reaching it
// (the reconnect is the client's own rule).

Deno.test({
  name: "web: Enter while forge is unreachable keeps the prompt and says it was not sent",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "proj", autoStart: true }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/proj/lead`);
    const composer = page.getByTestId("composer");
    await composer.waitFor();
    await page.waitForFunction(`globalThis.forgeDebug.client.state.link === "open"`);

    await w.forge.stop();
    await page.waitForFunction(`globalThis.forgeDebug.client.state.link !== "open"`);
    await composer.fill("the words I typed");
    await composer.press("Enter");
    await page.getByTestId("unsent").waitFor();
    assertEquals(await composer.inputValue(), "the words I typed");

    await w.restartForge();
    await page.waitForFunction(`globalThis.forgeDebug.client.state.link === "open"`, undefined, {
      timeout: 60_000,
    });
    await composer.press("Enter");
    await page.getByTestId("unsent").waitFor({ state: "detached" });
    assertEquals(await composer.inputValue(), "");
    await page.getByText("the words I typed").first().waitFor({ timeout: 60_000 });
  },
});
