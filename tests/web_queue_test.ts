import { assert, assertEquals } from "./assert.ts";
import { texts, webWorld } from "./web_harness.ts";

// spec: session > state.queue ("prompt_queued adds a row and prompt_lifecycle settles it"): a
// prompt sent while a turn runs waits in the composer's queue and leaves it when the CLI starts it.

Deno.test({
  name: "web: a prompt sent mid-turn shows in the queue, then runs; a restart under a live seat",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "queue", autoStart: true }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/queue/lead`);
    await page.getByTestId("composer").waitFor();
    await page.getByTestId("composer").fill("[[script:slow]] first");
    await page.getByTestId("send").click();
    await page.locator(".answer.streaming").waitFor({ timeout: 60_000 });
    await page.getByTestId("composer").fill("[[script:hello]] second");
    await page.getByTestId("send").click();
    const queue = page.getByTestId("queue");
    await queue.getByText("[[script:hello]] second").waitFor();
    await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor({
      timeout: 60_000,
    });
    await queue.waitFor({ state: "detached" });
    const prompts = await texts(page, "[data-testid=prompt]");
    assert(prompts.filter((p) => p.includes("second")).length === 1, JSON.stringify(prompts));
    const answers = await texts(page, "[data-testid=answer]");

    // forge restarted under a live seat (it starts again at boot, resuming its session): the
    // page reseeds from the new run and draws the same prompts and answers, none twice.
    await w.restartForge();
    await page.getByTestId("stale").waitFor({ state: "detached", timeout: 60_000 });
    await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor({
      timeout: 60_000,
    });
    assertEquals(await texts(page, "[data-testid=prompt]"), prompts);
    assertEquals(await texts(page, "[data-testid=answer]"), answers);
  },
});
