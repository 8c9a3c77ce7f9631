import { comparedWords } from '../../src/core/decoding/repetition';

/** Lower case, punctuation removed, apostrophes kept inside words: the words to compare. */
export const normaliseWords = comparedWords;

/** Word error rate: word-level edit distance over the reference's length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normaliseWords(reference);
  const hyp = normaliseWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  let row = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const next = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = row[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      next.push(Math.min(substitution, row[j]! + 1, next[j - 1]! + 1));
    }
    row = next;
  }
  return row[hyp.length]! / ref.length;
}
