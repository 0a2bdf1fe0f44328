/**
 * 16 kHz mono i16 WAV, the one audio file shape forge writes and reads: the read-aloud set, the
 * whisper engine's input, the tests' flite renderings. Anything else is refused in words.
 */

/** Wraps samples in a canonical 44-byte-header WAV. */
export function encodeWav(samples: Int16Array, rate = 16_000): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const v = new DataView(out.buffer);
  const ascii = (o: number, s: string) => [...s].forEach((c, i) => (out[o + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  v.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, "data");
  v.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) v.setInt16(44 + i * 2, samples[i], true);
  return out;
}

/** The samples of a 16 kHz mono 16-bit PCM WAV; throws a sentence naming what is different. */
export function decodeWav(bytes: Uint8Array, what = "the file"): Int16Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") {
    throw new Error(`${what} is not a WAV file`);
  }
  let o = 12;
  let format: { rate: number; channels: number; bits: number; pcm: boolean } | null = null;
  while (o + 8 <= bytes.length) {
    const id = tag(o);
    const size = v.getUint32(o + 4, true);
    if (id === "fmt ") {
      format = {
        pcm: v.getUint16(o + 8, true) === 1,
        channels: v.getUint16(o + 10, true),
        rate: v.getUint32(o + 12, true),
        bits: v.getUint16(o + 22, true),
      };
    } else if (id === "data") {
      if (!format) throw new Error(`${what} has its data before its format`);
      if (!format.pcm || format.channels !== 1 || format.rate !== 16_000 || format.bits !== 16) {
        throw new Error(
          `${what} is ${format.rate} Hz, ${format.channels} channel(s), ${format.bits}-bit; ` +
            "forge reads 16 kHz mono 16-bit PCM",
        );
      }
      const n = Math.min(size, bytes.length - o - 8) >> 1;
      const out = new Int16Array(n);
      for (let i = 0; i < n; i++) out[i] = v.getInt16(o + 8 + i * 2, true);
      return out;
    }
    o += 8 + size + (size & 1);
  }
  throw new Error(`${what} has no audio data`);
}
