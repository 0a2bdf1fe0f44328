import { assertEquals } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// A prompt pressed while the socket is down is not lost: the composer keeps the words and says
// they were not sent; once the socket is back, Enter sends them. A prompt forge refuses (a seat
// with no session) is not lost either: its words come back into the box with forge's reason,
// said once. spec: The socket > Reaching it (the reconnect is the client's own rule); What a
// client receives > error (a refusal names the seat); the forged turn is a send's acceptance.

Deno.test({
  name: "web: a prompt sent while forge is unreachable, or refused by it, keeps its words",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([
      { name: "proj", autoStart: true },
      { name: "asleep", autoStart: false },
    ]);
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

    // A seat nobody started refuses the prompt: the box had cleared at the press, and the words
    // come back with forge's reason beside them - in the composer, not again in the notices.
    await page.goto(`${w.webUrl}#/seat/Acme/asleep/lead`);
    await composer.fill("words for a seat that sleeps");
    await composer.press("Enter");
    const refused = page.getByTestId("prompt-refused");
    await refused.waitFor({ timeout: 30_000 });
    assertEquals(
      await refused.textContent(),
      "Not sent: Acme/asleep/lead: the seat has no session (nothing occupies it). " +
        "Your words are back in the box.",
    );
    assertEquals(await composer.inputValue(), "words for a seat that sleeps");
    assertEquals(await page.getByTestId("notices").count(), 0);
    // Typing again clears the sentence; the words stay the person's to send or change.
    await composer.press("End");
    await composer.type("!");
    await refused.waitFor({ state: "detached" });
    assertEquals(await composer.inputValue(), "words for a seat that sleeps!");
  },
});
