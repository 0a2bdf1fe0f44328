/** Words for scoring: lower case, punctuation stripped, as word error rate is usually counted. */
export function scoringWords(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, " ").split(/\s+/).filter((w) => w !== "");
}

/** Word-level edit distance: substitutions + deletions + insertions to turn `hyp` into `ref`. */
export function wordErrors(ref: string[], hyp: string[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row[j] = Math.min(
        prev[j] + 1,
        row[j - 1] + 1,
        prev[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[hyp.length];
}
