import { assertEquals } from "./assert.ts";
import { webWorld } from "./web_harness.ts";
import { texts } from "./web_harness.ts";

// Resuming an earlier conversation from the seat's page: the seat talks, starts a new
// conversation, and then takes the first one up again from the list of the project's earlier
// sessions (home > projects > project.sessions), each named by what list_sessions answers; the
// page draws the resumed session's own turns, and the CLI answers on in it. spec:
// resume_session; session_replaced.

Deno.test({
  name: "web: a seat resumes an earlier conversation from its list and draws its turns",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    const lifecycle = page.getByTestId("seat-lifecycle");
    await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
    const box = page.getByTestId("composer");
    await box.fill("the first conversation");
    await page.getByTestId("send").click();
    await page.getByText("Echo: the first conversation").waitFor({ timeout: 60_000 });
    await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
    const first = await page.evaluate(
      "globalThis.forgeDebug.client.state.seat.record.header.session_id",
    ) as string;

    // A new conversation: the first one's turns leave the page.
    await page.getByTestId("seat-new").click();
    await page.getByTestId("seat-new-yes").click();
    await page.waitForFunction(
      `globalThis.forgeDebug.client.state.seat?.record?.header.session_id !== ${
        JSON.stringify(first)
      }`,
      undefined,
      { timeout: 60_000 },
    );
    await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
    await box.fill("the second conversation");
    await page.getByTestId("send").click();
    await page.getByText("Echo: the second conversation").waitFor({ timeout: 60_000 });
    assertEquals(await texts(page, "[data-testid=prompt]"), ["the second conversation"]);

    // The earlier one is listed (the one held now is not); resuming asks first, then the page
    // draws the first conversation's turns.
    const list = page.getByTestId("resume");
    await list.locator("summary").click();
    const earlier = list.getByTestId(`resume-${first}`);
    await earlier.waitFor({ timeout: 30_000 });
    // Named as the CLI's picker names it (list_sessions): this one by its first prompt.
    await earlier.locator(".resume-name").getByText("the first conversation").waitFor({
      timeout: 30_000,
    });
    await w.shot("seat-resume-list");
    await earlier.getByTestId("resume-pick").click();
    await earlier.getByTestId("resume-yes").click();
    await page.waitForFunction(
      `globalThis.forgeDebug.client.state.seat?.record?.header.session_id === ${
        JSON.stringify(first)
      }`,
      undefined,
      { timeout: 60_000 },
    );
    await page.getByText("Echo: the first conversation").waitFor({ timeout: 60_000 });
    assertEquals(await texts(page, "[data-testid=prompt]"), ["the first conversation"]);

    // The CLI runs on in it: a new prompt's answer joins the resumed turns.
    await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
    await box.fill("back again");
    await page.getByTestId("send").click();
    await page.getByText("Echo: back again").waitFor({ timeout: 60_000 });
    assertEquals(await texts(page, "[data-testid=prompt]"), [
      "the first conversation",
      "back again",
    ]);
  },
});
