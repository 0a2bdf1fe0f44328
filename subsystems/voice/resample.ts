/** Linear resampling to 16 kHz, the rate the dictation engines read. */
export function to16k(samples: Int16Array, rate: number): Int16Array {
  if (rate === 16_000) return samples;
  const out = new Int16Array(Math.floor(samples.length * 16_000 / rate));
  const step = rate / 16_000;
  for (let i = 0; i < out.length; i++) {
    const x = i * step;
    const j = Math.floor(x);
    const a = samples[j] ?? 0;
    const b = samples[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return out;
}
