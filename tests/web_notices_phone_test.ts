import type { Locator } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// A forge's refusals on a phone (spec: What a client receives > error; Subjects, a refused
// subscribe). A page whose subject the server will not read says so in its place, and that
// is not an alert on every page after: with dictation off (its default) the models page says
// why it is empty, and home and the forges page carry no notice of it. A refusal that is a
// notice reads as one sentence, its head and reason on one line, with a dismiss a thumb hits.

/** The notice's bold head, the reason's first words and its dismiss, by their top edges. */
function lineTops(notice: Locator) {
  return notice.evaluate((el) => {
    const head = el.querySelector("b")!;
    const after = el.ownerDocument.createRange();
    after.selectNodeContents(head.nextSibling!);
    const dismiss = el.querySelector("button")!;
    return {
      head: head.getBoundingClientRect().top,
      reason: after.getClientRects()[0].top,
      dismiss: dismiss.getBoundingClientRect().top,
      headBottom: head.getBoundingClientRect().bottom,
    };
  });
}

Deno.test({
  name: "web: on a phone a refused read is its page's words, a notice one sentence",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], { device: PHONE });
    const { page } = w;
    await page.goto(`${w.webUrl}#/models`);
    const refused = page.getByTestId("models-refused");
    await refused.getByText("[dictate] and [tts] are both off", { exact: false }).waitFor({
      timeout: 60_000,
    });
    await onScreen(page, refused, "the models page's words");
    assertEquals(await page.getByTestId("notices").count(), 0, "the models page alerts");

    // Elsewhere, nothing about it.
    await page.goto(`${w.webUrl}#/forges`);
    await page.getByTestId("forges-page").waitFor();
    assertEquals(await page.getByTestId("notices").count(), 0, "the forges page alerts");
    await page.goto(`${w.webUrl}#/`);
    await page.getByTestId("seat-Acme/alpha/lead").waitFor({ timeout: 60_000 });
    assertEquals(await page.getByTestId("notices").count(), 0, "home alerts");

    // A schedule forge refuses: its notice, head and reason on one line, dismissed with a tap.
    await page.goto(`${w.webUrl}#/board`);
    const schedules = page.getByTestId("schedules-alpha");
    await schedules.getByTestId("cron-prompt").fill("look at the board");
    await schedules.getByTestId("cron-when").fill("61 * * * *");
    await schedules.getByTestId("cron-create").tap();
    const notice = page.getByTestId("notices").locator(".notice", { hasText: "cron_create" });
    await notice.waitFor({ timeout: 30_000 });
    await notice.scrollIntoViewIfNeeded();
    const tops = await lineTops(notice);
    assert(
      Math.abs(tops.reason - tops.head) < 2,
      `the reason starts a line below: ${JSON.stringify(tops)}`,
    );
    assert(
      tops.dismiss < tops.headBottom,
      `the dismiss sits on a row of its own: ${JSON.stringify(tops)}`,
    );
    const dismiss = notice.getByRole("button", { name: "Dismiss" });
    await onScreen(page, dismiss, "the dismiss");
    const box = (await dismiss.boundingBox())!;
    assert(box.width >= 40 && box.height >= 40, `the dismiss is ${box.width}x${box.height}`);
    await w.shot("phone-notice");
    await dismiss.tap();
    await notice.waitFor({ state: "detached" });
  },
});
