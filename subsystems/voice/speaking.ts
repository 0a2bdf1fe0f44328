import { DEFAULT_SPEAKER, isSpeakerId, type Speaker, Speakers } from "./engines/mod.ts";
import type { Choice } from "./row.ts";

/** Why nothing can be spoken: the engine cannot run here, or the voice is not one it has. */
export class Unspeakable extends Error {
  constructor(why: string, readonly part: "engine" | "voice") {
    super(why);
  }
}

/**
 * The speaking engines and which one speaks: `[tts] speaking_model` (else the compiled pin), its
 * voice, and `active`, which answers the engine and voice that speak now or throws `Unspeakable`.
 */
export function speakingEngine(area: () => Record<string, unknown>) {
  const speakers = new Speakers();
  const probing = speakers.probeAll();
  const choice = (): Choice => {
    const pin = area().speaking_model;
    if (pin === null || pin === undefined) {
      return { id: DEFAULT_SPEAKER, from: "compiled_pin", unknown: null };
    }
    if (isSpeakerId(pin)) return { id: pin, from: "speaking_model", unknown: null };
    return { id: DEFAULT_SPEAKER, from: "compiled_pin", unknown: String(pin) };
  };
  const configuredVoice = () => (typeof area().voice === "string" ? area().voice as string : null);
  /** The engine and voice that speak now; throws `Unspeakable` saying why nothing can. */
  const active = async (voice: string | null): Promise<{ speaker: Speaker; voice: string }> => {
    await probing;
    const c = choice();
    const probe = await speakers.probe(c.id);
    if ("missing" in probe) throw new Unspeakable(probe.missing, "engine");
    const speaker = speakers.get(c.id);
    const v = voice ?? configuredVoice() ?? speaker.defaultVoice;
    if (!probe.voices.includes(v)) {
      const voices = probe.voices.join(", ");
      throw new Unspeakable(`${c.id} has no voice "${v}"; its voices are ${voices}`, "voice");
    }
    return { speaker, voice: v };
  };

  return { speakers, probing, choice, configuredVoice, active };
}
