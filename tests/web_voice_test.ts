import { assert, assertEquals, assertMatch } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// Voice from the page: the seat's listen switch (this connection's own voice_mode), the agent's
// voice__say clips played through Web Audio in seq order back to back (each scheduled at the
// previous one's end: no gap, no overlap), a voice preview on the same stream, the speaking
// model's row, and listening that stops when the page leaves the seat and resumes on return.
// spec: voice_mode, voice_mode_state, voice_preview, voice_audio; home > voice.

const SCRIPT = new URL("../fixtures/mcp/voice_script.json", import.meta.url).pathname;
const SEAT = "Acme/alpha/lead";

type Scheduled = { seq: number; arrived: number; start: number; end: number };

Deno.test({
  name: "web: listen to a seat; its clips play in order back to back; a preview; leaving stops it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      script: SCRIPT,
      config: "[tts]\nenabled = true\n[dictate]\nenabled = true\n",
    });
    const { page } = w;
    // A second page on the seat counts the room.
    const watcher = await w.browser.newPage({ bypassCSP: true });
    await page.goto(`${w.webUrl}#/seat/${SEAT}`);
    await watcher.goto(`${w.webUrl}#/seat/${SEAT}`);
    const listeners = (p: typeof page) => p.getByTestId("voice-listeners");
    await listeners(watcher).getByText("0 listening").waitFor({ timeout: 60_000 });
    await page.getByTestId("speaking-model").waitFor({ timeout: 60_000 });
    assertMatch((await page.getByTestId("speaking-model").textContent())!, /^· \S+/);

    await page.getByTestId("voice-switch").click();
    await listeners(watcher).getByText("1 listening").waitFor({ timeout: 30_000 });
    await page.getByTestId("composer").fill("[[script:say]] tell me");
    await page.getByTestId("send").click();
    const scheduled = () =>
      page.evaluate("globalThis.forgeDebug.client.voice.player.player.scheduled") as Promise<
        Scheduled[]
      >;
    await page.waitForFunction(
      "globalThis.forgeDebug.client.voice.player.player.scheduled.length >= 3",
      undefined,
      { timeout: 60_000 },
    );
    const clips = await scheduled();
    console.log(`scheduled: ${JSON.stringify(clips)}`);
    assertEquals(clips.map((c) => c.seq), [0, 1, 2], "played in seq order");
    for (let i = 1; i < clips.length; i++) {
      const [prev, clip] = [clips[i - 1], clips[i]];
      assert(clip.start >= prev.end - 1e-9, `clip ${clip.seq} overlaps the one before`);
      // A clip that arrived while the one before still played starts exactly at its end.
      if (clip.arrived < prev.end) assertEquals(clip.start, prev.end, `a gap before ${clip.seq}`);
      assert(clip.end > clip.start, "each clip has a length");
    }
    await w.shot("seat-voice");

    // A preview: one fixed line on the same stream, the next number.
    await page.getByTestId("voice-preview").click();
    await page.waitForFunction(
      "globalThis.forgeDebug.client.voice.player.player.scheduled.length >= 4",
      undefined,
      { timeout: 60_000 },
    );
    assertEquals((await scheduled())[3].seq, 3);

    // Leaving the seat stops listening (the room drops to none); coming back resumes it.
    await page.goto(`${w.webUrl}#/`);
    await listeners(watcher).getByText("0 listening").waitFor({ timeout: 30_000 });
    assertEquals(await page.evaluate("globalThis.forgeDebug.client.voice.player.listening"), null);
    await page.goto(`${w.webUrl}#/seat/${SEAT}`);
    await listeners(watcher).getByText("1 listening").waitFor({ timeout: 30_000 });
    await page.getByTestId("voice-switch").click();
    await listeners(watcher).getByText("0 listening").waitFor({ timeout: 30_000 });
    await watcher.close();
  },
});
