/** `median (min..max)` of `xs` to `digits` places; the median of an even count is the upper one. */
export function spread(xs: number[], digits = 2): string {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(digits);
  return `${f(s[s.length >> 1])} (${f(s[0])}..${f(s.at(-1)!)})`;
}
