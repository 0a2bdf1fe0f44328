/**
 * The figures every bench prints: a median, a percentile, and `median (min..max)`. One module so
 * every bench's median means the same thing.
 */

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The `p`th percentile (0..100) of `xs`, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** `median (min..max)` of `xs` to `digits` places. */
export function spread(xs: number[], digits = 2): string {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(digits);
  return `${f(median(s))} (${f(s[0])}..${f(s.at(-1)!)})`;
}
