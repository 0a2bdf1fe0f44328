import { sha256Hex } from "../subsystems/dictate/digest.ts";
import { encodeWav } from "../subsystems/dictate/wav.ts";
import { assert, assertMatch } from "./assert.ts";
import { pinnedFlite } from "./dictate_audio.ts";
import { webWorld } from "./web_harness.ts";

// The models page: the catalogue check against a feed file, a row installed from the import dir
// (its digest checked), activated (the real whisper.cpp runtime refuses a file that is not a
// model, in words), uninstalled; the read-aloud passage recorded from the page's microphone and
// benched, the result listed. spec: dictate_models (its field table); the original's dictate_*
// commands.

Deno.test({
  name: "web: the models page checks, installs, activates, uninstalls, records and benches",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const bytes = crypto.getRandomValues(new Uint8Array(4096));
    const digest = await sha256Hex(bytes);
    const wav = await Deno.makeTempFile({ suffix: ".wav" });
    const speech = await pinnedFlite("run the tests");
    await Deno.writeFile(wav, encodeWav(speech));
    let root = "";
    try {
      await using w = await webWorld([{ name: "proj", autoStart: false }], {
        args: [
          "--use-fake-ui-for-media-stream",
          "--use-fake-device-for-media-stream",
          `--use-file-for-fake-audio-capture=${wav}`,
        ],
        before: async (world) => {
          root = world.dir;
          await Deno.mkdir(`${root}/import`);
          await Deno.writeFile(`${root}/import/ggml-test.bin`, bytes);
          await Deno.writeTextFile(
            `${root}/feed.json`,
            JSON.stringify({
              release: "test-1",
              rows: [{
                variant: "whisper-test",
                display_name: "a ggml file made by the test",
                family: "whisper",
                kind: "dictation",
                engine: "whisper",
                source: "local_file",
                package: null,
                path: null,
                file: "ggml-test.bin",
                size_bytes: bytes.length,
                digest: { algorithm: "sha256", value: digest },
                license: "MIT",
                params: null,
                quant: null,
                languages: ["en"],
                streaming: false,
                url: null,
              }],
            }),
          );
        },
        config: (world) =>
          `[dictate]\nenabled = true\nmodels_dir = "${world.dir}/models"\n` +
          `import_dir = "${world.dir}/import"\ncatalogue = "${world.dir}/feed.json"\n`,
      });
      const { page } = w;
      await page.goto(`${w.webUrl}#/models`);
      const check = page.getByTestId("catalogue-check");
      await check.getByText("catalogue: never").waitFor({ timeout: 60_000 });
      await page.getByTestId("catalogue-check-now").click();
      await check.getByText("catalogue: fresh (test-1)").waitFor({ timeout: 60_000 });
      const row = page.getByTestId("model-whisper-test");
      assertMatch((await row.textContent())!, /a ggml file made by the test · dictation · MIT/);

      await row.getByTestId("model-install").click();
      await row.getByTestId("model-activate").waitFor({ timeout: 60_000 });
      await row.getByTestId("model-activate").click();
      const progress = page.getByTestId("model-progress");
      await progress.getByText(/activate: failed: .*not a ggml whisper model/).waitFor({
        timeout: 60_000,
      });
      await row.getByTestId("model-uninstall").click();
      await row.getByTestId("model-install").waitFor({ timeout: 60_000 });

      // The read-aloud passage from the page's microphone, kept, then benched.
      await page.getByTestId("read-aloud-record").click();
      const keep = page.getByTestId("read-aloud-keep");
      await keep.waitFor({ timeout: 30_000 });
      await page.waitForFunction(
        `globalThis.forgeDebug.mic.frames >= ${Math.ceil(speech.length / 320)}`,
        undefined,
        { timeout: 60_000 },
      );
      await keep.click();
      const kept = page.getByTestId("read-aloud-recordings").locator("li").first();
      await kept.waitFor({ timeout: 60_000 });
      // The recording is drawn with its length: at least the passage the microphone streamed.
      const seconds = Number(/ (\d+\.\d) s/.exec((await kept.textContent())!)?.[1]);
      assert(seconds >= speech.length / 16_000 - 0.1, `the recording is drawn as ${seconds} s`);
      await page.getByTestId("bench-run").click();
      const result = page.getByTestId("bench-result").first();
      await result.waitFor({ timeout: 120_000 });
      assertMatch(
        (await result.textContent())!,
        /^dictation en-us\.lm\.bin: WER [\d.]+ · [\d.]+× realtime · 1 clips$/,
      );
      await w.shot("models");
    } finally {
      await Deno.remove(wav);
    }
  },
});
