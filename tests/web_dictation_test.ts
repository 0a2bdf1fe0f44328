import { encodeWav } from "../subsystems/dictate/wav.ts";
import { assert, assertEquals } from "./assert.ts";
import { pinnedFlite } from "./dictate_audio.ts";
import { webWorld } from "./web_harness.ts";

// Dictation from the page through a real microphone path: Chromium's fake capture device plays
// flite's speech into getUserMedia, the page's AudioWorklet streams it as kind-0 frames between
// dictate_stream and dictate_stop, the real PocketSphinx and Silero transcribe it, and the
// landed words wait in the composer for editing - and after a reload, from the record's notice.
// The push-to-talk key the composer record names starts and stops a take as well, held or
// tapped. spec: dictate_stream ("the connection that sends it feeds the audio as the binary
// frames"), Binary messages (kind 0: i16 mono 16 kHz, one frame per 20 ms); session > composer
// (notice, bind).

const SENTENCE = "push the branch to origin";
/** The words as the take lands them: normalised by the server's default axes (semi-formal prose). */
const LANDED = "Push the branch to origin.";
const DICTATE = "[dictate]\nenabled = true\n";

/** Waits until the page's microphone has handed on at least `frames` 20 ms frames. */
function heard(page: import("playwright-core").Page, frames: number) {
  return page.waitForFunction(`globalThis.forgeDebug.mic.frames >= ${frames}`, undefined, {
    timeout: 60_000,
  });
}

Deno.test({
  name:
    "web: dictate into the composer from a real microphone path; the words survive a reload; push-to-talk",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const speech = await pinnedFlite(SENTENCE);
    const wav = await Deno.makeTempFile({ suffix: ".wav" });
    await Deno.writeFile(wav, encodeWav(speech));
    try {
      await using w = await webWorld([{ name: "proj" }], {
        config: DICTATE,
        args: [
          "--use-fake-ui-for-media-stream",
          "--use-fake-device-for-media-stream",
          `--use-file-for-fake-audio-capture=${wav}%noloop`,
        ],
      });
      const { page } = w;
      // The microphone opens when the test lets it (a gate the test opens), so a Cancel pressed
      // while it is still opening can be seen to close it.
      await page.addInitScript(`{
        const media = navigator.mediaDevices;
        const real = media.getUserMedia.bind(media);
        media.getUserMedia = async (c) => {
          if (globalThis.__micGate) await globalThis.__micGate;
          return real(c);
        };
      }`);
      await page.goto(`${w.webUrl}#/seat/Acme/proj/lead`);
      const mic = page.getByTestId("mic-button");
      // The button waits for the dictation models to load (home > dictate).
      await page.waitForFunction(
        `document.querySelector('[data-testid=mic-button]') && !document.querySelector('[data-testid=mic-button]').disabled`,
        undefined,
        { timeout: 120_000 },
      );
      await mic.click();
      const take = page.getByTestId("take");
      await take.and(page.locator("[data-phase=listening]")).waitFor({ timeout: 60_000 });
      // The meter moves with the server's own levels while the speech plays.
      await page.getByTestId("level").waitFor();
      // The whole file has been captured (its samples, plus a margin of silence) before the stop.
      await heard(page, Math.ceil(speech.length / 320) + 25);
      await mic.click();
      const composer = page.getByTestId("composer");
      await page.waitForFunction(
        `document.querySelector('[data-testid=composer]').value.includes("origin")`,
        undefined,
        { timeout: 120_000 },
      );
      assertEquals(await composer.inputValue(), LANDED);
      await w.shot("seat-dictated");

      // A reload: the landing nobody sent is carried by the record and placed back in the box.
      await page.reload();
      await page.waitForFunction(
        `document.querySelector('[data-testid=composer]')?.value === ${JSON.stringify(LANDED)}`,
        undefined,
        { timeout: 60_000 },
      );

      // The seat's own style: an override picked beside the mic is the seat's, read back after a
      // reload from the record (spec: greeting > settings.dictate; dictate_overrides).
      await page.getByTestId("dictate-axes").locator("summary").click();
      await page.getByTestId("override-styling").selectOption("verbatim");
      await page.reload();
      await page.getByTestId("dictate-axes").locator("summary").click();
      await page.waitForFunction(
        `document.querySelector('[data-testid=override-styling]')?.value === "verbatim"`,
        undefined,
        { timeout: 60_000 },
      );

      // The push-to-talk key the record names (right cmd, auto): held, it talks until released.
      // Off a Mac the Meta key is named Super.
      const meta = Deno.build.os === "darwin" ? "cmd" : "Super";
      assertEquals(
        await page.getByTestId("ptt").textContent(),
        `push-to-talk: right ${meta} (auto)`,
      );
      await composer.fill("");
      await composer.focus();
      const before = await page.evaluate("globalThis.forgeDebug.mic.frames") as number;
      await page.keyboard.down("MetaRight");
      await take.and(page.locator("[data-phase=listening]")).waitFor({ timeout: 60_000 });
      await heard(page, before + 30);
      await page.keyboard.up("MetaRight");
      // The take ends on the key's release: words, or the server's reason it heard none.
      await page.waitForFunction(
        `document.querySelector('[data-testid=composer]').value !== "" ||
          document.querySelector('[data-testid=take-why]') !== null`,
        undefined,
        { timeout: 120_000 },
      );
      const sent = await page.evaluate("globalThis.forgeDebug.mic.frames") as number;
      assert(sent >= before + 30, "the held key captured audio");
      console.log(
        `push-to-talk take: ${
          await composer.inputValue() || await page.getByTestId("take-why").textContent()
        }`,
      );
      if (await page.getByTestId("take-why").count() > 0) {
        await page.getByTestId("take-why").locator("button").click();
      }

      // Tapped (auto): one tap starts a take that keeps listening after the key is up, the next
      // tap stops it. Chromium's own input path carries each press's time, so a tap is a tap
      // however slowly the machine delivers it (a hold is 400 ms or more).
      const cdp = await page.context().newCDPSession(page);
      const tap = async () => {
        const at = Date.now() / 1000;
        const key = { key: "Meta", code: "MetaRight", location: 2, windowsVirtualKeyCode: 92 };
        await cdp.send("Input.dispatchKeyEvent", {
          ...key,
          type: "rawKeyDown",
          modifiers: 4,
          timestamp: at,
        });
        await cdp.send("Input.dispatchKeyEvent", { ...key, type: "keyUp", timestamp: at + 0.05 });
      };
      await composer.fill("");
      await composer.focus();
      const tapped = await page.evaluate("globalThis.forgeDebug.mic.frames") as number;
      await tap();
      await take.and(page.locator("[data-phase=listening]")).waitFor({ timeout: 60_000 });
      // The key is up and the take still listens: the microphone goes on streaming.
      await heard(page, tapped + 30);
      assertEquals(await take.getAttribute("data-phase"), "listening");
      assertEquals(await mic.textContent(), "■ Stop");
      await tap();
      await page.waitForFunction(
        `document.querySelector('[data-testid=take]')?.dataset.phase !== "listening"`,
        undefined,
        { timeout: 60_000 },
      );
      assertEquals(await mic.textContent(), "Dictate");
      await page.waitForFunction(
        `document.querySelector('[data-testid=composer]').value !== "" ||
          document.querySelector('[data-testid=take-why]') !== null`,
        undefined,
        { timeout: 120_000 },
      );
      if (await page.getByTestId("take-why").count() > 0) {
        await page.getByTestId("take-why").locator("button").click();
      }

      // Cancel pressed while the browser is still opening the microphone: when it opens, it is
      // closed at once and no frame is sent.
      const stats = () =>
        page.evaluate("({ ...globalThis.forgeDebug.mic })") as Promise<
          { frames: number; opened: number; closed: number }
        >;
      const was = await stats();
      await page.evaluate(`globalThis.__micGate = new Promise((r) => globalThis.__openMic = r); 0`);
      await mic.click();
      // The server may already have said the take started; the microphone is still opening.
      await page.getByTestId("mic-cancel").click();
      await page.evaluate("globalThis.__openMic()");
      await page.waitForFunction(
        `globalThis.forgeDebug.mic.opened === ${was.opened + 1} &&
          globalThis.forgeDebug.mic.closed === ${was.closed + 1}`,
        undefined,
        { timeout: 30_000 },
      );
      assertEquals((await stats()).frames, was.frames);
      assertEquals(await page.getByTestId("take-why").textContent(), "The take was cancelled. ✕");
    } finally {
      await Deno.remove(wav);
    }
  },
});
