import { cosine } from './terms';

const DAMPING = 0.85;
const ITERATIONS = 100;
const TOLERANCE = 1e-9;

/**
 * How central each sentence is to a text (the LexRank family): sentences are joined by the
 * cosine of their term weights (each term weighted by how few sentences hold it), and a
 * sentence ranks high when sentences that rank high resemble it. Deterministic: the same terms
 * give the same scores. `terms[i]` are the topic terms of sentence i.
 */
export function sentenceCentrality(terms: readonly (readonly string[])[]): number[] {
  const n = terms.length;
  if (n === 0) return [];
  const holding = new Map<string, number>();
  for (const sentence of terms) {
    for (const t of new Set(sentence)) holding.set(t, (holding.get(t) ?? 0) + 1);
  }
  const weights = terms.map((sentence) => {
    const w = new Map<string, number>();
    for (const t of sentence) w.set(t, (w.get(t) ?? 0) + Math.log((n + 1) / holding.get(t)!));
    return w;
  });
  const similarity = weights.map((a, i) => weights.map((b, j) => (i === j ? 0 : cosine(a, b))));
  const outgoing = similarity.map((row) => row.reduce((s, x) => s + x, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let step = 0; step < ITERATIONS; step++) {
    // A sentence like no other passes its weight to all alike, so the scores keep summing to 1.
    const spread = scores.reduce((s, p, j) => (outgoing[j] === 0 ? s + p / n : s), 0);
    const next = scores.map((_, i) => {
      let gathered = spread;
      for (let j = 0; j < n; j++) {
        if (outgoing[j]! > 0) gathered += (scores[j]! * similarity[j]![i]!) / outgoing[j]!;
      }
      return (1 - DAMPING) / n + DAMPING * gathered;
    });
    const change = next.reduce((s, p, i) => s + Math.abs(p - scores[i]!), 0);
    scores = next;
    if (change < TOLERANCE) break;
  }
  return scores;
}

/**
 * The indices of the `count` most central sentences, in the order they were said: ties go to
 * the earlier sentence, so the choice never depends on anything but the text.
 */
export function keySentences(terms: readonly (readonly string[])[], count: number): number[] {
  const scores = sentenceCentrality(terms);
  return scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, count))
    .map((s) => s.index)
    .sort((a, b) => a - b);
}
