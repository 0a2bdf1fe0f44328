/** Words for scoring: lower case, punctuation stripped (the dictation bench's method). */
export function scoringWords(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, " ").split(/\s+/).filter((w) => w !== "");
}

/** Word edit distance (substitutions + deletions + insertions) from `ref` to `hyp`. */
export function wordErrors(ref: string[], hyp: string[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + same);
    }
    prev = row;
  }
  return prev[hyp.length];
}

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
