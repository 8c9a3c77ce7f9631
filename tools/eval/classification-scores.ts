/**
 * Scores of a labelling against the truth: per-label F1 and their mean over the labels that
 * occur in the truth or the guesses (macro-F1), and accuracy.
 */
export function macroF1(truth: readonly string[], guessed: readonly string[]): number {
  const labels = new Set([...truth, ...guessed]);
  let sum = 0;
  for (const label of labels) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    truth.forEach((t, i) => {
      const g = guessed[i];
      if (g === label && t === label) tp++;
      else if (g === label) fp++;
      else if (t === label) fn++;
    });
    sum += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return labels.size === 0 ? 0 : sum / labels.size;
}

export function accuracy(truth: readonly string[], guessed: readonly string[]): number {
  if (truth.length === 0) return 0;
  return truth.filter((t, i) => guessed[i] === t).length / truth.length;
}

/** The most frequent label (the first of them in `truth` on a tie). */
export function majorityLabel(truth: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of truth) counts.set(t, (counts.get(t) ?? 0) + 1);
  let best = truth[0] ?? '';
  for (const [label, n] of counts) if (n > (counts.get(best) ?? 0)) best = label;
  return best;
}
