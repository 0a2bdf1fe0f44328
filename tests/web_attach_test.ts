import { Buffer } from "node:buffer";
import { lastUserBlocks } from "../fixtures/fake_api/inspect.ts";
import { assert, assertEquals } from "./assert.ts";
import { until } from "./harness.ts";
import { webWorld } from "./web_harness.ts";

// Images on a prompt: picked with the composer's file picker or pasted into it, each removable,
// a file that is no image refused in words; sent, they reach the model beside the words and are
// drawn on the prompt's turn; refused with the prompt (a seat with no session), they come back
// with its words. spec: prompt (`attachments`); What a client receives > error. The real CLI on
// the fake Messages API, whose request log shows what the CLI sent.

/** A 1x1 PNG. */
const PNG_B64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const png = (name: string) => ({
  name,
  mimeType: "image/png",
  buffer: Buffer.from(PNG_B64, "base64"),
});

Deno.test({
  name: "web: images picked or pasted ride a prompt; a refused prompt gives them back",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([
      { name: "proj", autoStart: true },
      { name: "asleep", autoStart: false },
    ], { config: "[browser]\nenabled = false\n" });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/proj/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });
    const input = page.getByTestId("attach-input");
    const attached = page.getByTestId("attached").locator("img");

    // A file that is no image is refused, named, and nothing is attached.
    await input.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("hi"),
    });
    assertEquals(
      await page.getByTestId("attach-refused").textContent(),
      "Not attached: notes.txt is text/plain: a prompt carries PNG, JPEG, GIF or WebP images.",
    );
    await input.setInputFiles(png("picked.png"));
    await attached.first().waitFor();
    // A screenshot pasted into the box joins it.
    // (The page's own code, as a string: the test's types know no DOM.)
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob("${PNG_B64}"), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
      const box = document.querySelector("[data-testid=composer]");
      box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
    })()`);
    await until(async () => await attached.count() === 2, 10_000, "the pasted image");
    const alts = () => attached.evaluateAll((imgs) => imgs.map((i) => i.getAttribute("alt")));
    assertEquals(await alts(), [
      "picked.png",
      "pasted.png",
    ]);
    await page.getByRole("button", { name: "Remove picked.png" }).click();
    await until(async () => await attached.count() === 1, 10_000, "one image left");

    // Sent: the turn draws the image beside the words, and the model received it.
    const composer = page.getByTestId("composer");
    await composer.fill("what is in this image?");
    await composer.press("Enter");
    await page.getByTestId("prompt-images").locator("img").waitFor({ timeout: 60_000 });
    assertEquals(await page.getByTestId("attached").count(), 0, "the composer let them go");
    let images: Record<string, unknown>[] = [];
    await until(
      async () => {
        const sent = (await w.world.apiRequests()) as unknown as { kind: string; body: unknown }[];
        images = sent.filter((r) => r.kind === "main")
          .flatMap((r) => lastUserBlocks(r.body).filter((b) => b.type === "image"));
        return images.length > 0;
      },
      60_000,
      "the model's request with the image",
    );
    assertEquals(images[0].source, { type: "base64", media_type: "image/png", data: PNG_B64 });
    await w.shot("prompt-with-image");

    // A seat nobody started refuses the prompt: its words and its image come back.
    // The route moves on the hash's change: files picked before the page draws that seat would
    // land in the seat the page is leaving, whose composer lets them go.
    await page.goto(`${w.webUrl}#/seat/Acme/asleep/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Sleeping").waitFor({ timeout: 30_000 });
    await input.setInputFiles(png("again.png"));
    await attached.first().waitFor();
    await composer.fill("look at this");
    await composer.press("Enter");
    await page.getByTestId("prompt-refused").waitFor({ timeout: 30_000 });
    assertEquals(await composer.inputValue(), "look at this");
    assertEquals(await alts(), ["again.png"]);
    assert(await page.getByTestId("prompt-images").count() === 0, "nothing was drawn as sent");
  },
});
