import { z } from "zod";
import { Slot } from "./slot.ts";

// spec: voice_mode, voice_audio, voice_mode_state. Both server-side messages ride the update
// stream as keyed SessionUpdates, so every connection subscribed to the seat receives them.

/** One rendered clip: mono 16-bit little-endian samples at `sample_rate`, base64. */
export const VoiceAudio = z.object({
  key: Slot,
  /** Numbered per seat in render order, from 0. */
  seq: z.number().int().nonnegative(),
  sample_rate: z.number().int().positive(),
  pcm: z.string(),
}).strict();
export type VoiceAudio = z.infer<typeof VoiceAudio>;

/** How many connections have voice on for the seat. */
export const VoiceModeState = z.object({
  key: Slot,
  listeners: z.number().int().nonnegative(),
}).strict();
export type VoiceModeState = z.infer<typeof VoiceModeState>;

/** Encodes i16 samples as the wire's base64 little-endian PCM. */
export function encodePcm(samples: Int16Array): string {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i], true);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** Inverse of `encodePcm`, for clients playing (or tests reading back) a clip. */
export function decodePcm(pcm: string): Int16Array {
  const bin = atob(pcm);
  const out = new Int16Array(bin.length >> 1);
  for (let i = 0; i < out.length; i++) {
    const v = bin.charCodeAt(i * 2) | (bin.charCodeAt(i * 2 + 1) << 8);
    out[i] = v >= 0x8000 ? v - 0x10000 : v;
  }
  return out;
}
