/**
 * Word error rate's two halves, as speech engines are usually scored: the words of a text, and
 * the word edit distance between what was said and what an engine heard. Dictation's and
 * voice's benches score their engines with the same rule, so a rate compares across the two.
 */

/** Words for scoring: lower case, punctuation stripped. */
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
