import { assert, assertEquals } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// A seat with two questions waiting, on an 800 px high desk screen (spec: subscribe > answering:
// the dock draws every ask it is handed): the conversation's box ends above the dock, so the
// dock's head ("2 asks wait on you", Fold) is never drawn under the conversation's turns, and
// Fold takes a click.

Deno.test({
  name: "web: the conversation never spills over the asks dock on a desk screen",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").fill("[[script:ask]] pick for me");
    await page.getByTestId("send").click();
    const count = page.getByTestId("dock-count");
    await count.getByText("2 asks wait on you").waitFor({ timeout: 60_000 });
    await page.getByTestId("ask-question").nth(1).waitFor();

    const chat = (await page.getByTestId("chat").boundingBox())!;
    const dock = (await page.getByTestId("dock").boundingBox())!;
    assert(
      chat.y + chat.height <= dock.y,
      `the conversation ends at ${chat.y + chat.height}, under the dock's top ${dock.y}`,
    );
    // What is drawn at the head's words is the head, not a turn above it.
    const box = (await count.boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const hit = await page.evaluate(
      `document.elementFromPoint(${x}, ${y})?.closest("[data-testid]")?.dataset.testid`,
    );
    assertEquals(hit, "dock-count");
    await w.shot("desk-two-asks");
    await page.getByTestId("dock-fold").click({ timeout: 5_000 });
    await page.getByTestId("ask-question").first().waitFor({ state: "detached" });
  },
});
