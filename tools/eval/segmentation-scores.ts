/**
 * Scores of a text segmentation against the true one, over a sequence of units (here, words),
 * each labelled with the part it belongs to. Pk (Beeferman et al.): the share of unit pairs k
 * apart that one segmentation puts in the same part and the other does not. WindowDiff (Pevzner
 * and Hearst): the share of windows of k units in which the two count a different number of
 * boundaries. Both 0 for a perfect segmentation; k is half the mean true part's length.
 */

/** Half the mean length of the true parts, in units (at least 2). */
export function windowSize(reference: readonly number[]): number {
  const parts = new Set(reference).size;
  return Math.max(2, Math.round(reference.length / parts / 2));
}

const boundariesIn = (labels: readonly number[], from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) if (labels[i] !== labels[i + 1]) n += 1;
  return n;
};

export function pk(reference: readonly number[], hypothesis: readonly number[], k: number): number {
  const windows = reference.length - k;
  if (windows <= 0) return 0;
  let errors = 0;
  for (let i = 0; i < windows; i++) {
    const sameRef = reference[i] === reference[i + k];
    const sameHyp = hypothesis[i] === hypothesis[i + k];
    if (sameRef !== sameHyp) errors += 1;
  }
  return errors / windows;
}

export function windowDiff(
  reference: readonly number[],
  hypothesis: readonly number[],
  k: number,
): number {
  const windows = reference.length - k;
  if (windows <= 0) return 0;
  let errors = 0;
  for (let i = 0; i < windows; i++) {
    if (boundariesIn(reference, i, i + k) !== boundariesIn(hypothesis, i, i + k)) errors += 1;
  }
  return errors / windows;
}

/** `count` parts of equal length: the evenly spaced baseline. */
export function evenParts(length: number, count: number): number[] {
  return Array.from({ length }, (_, i) => Math.min(count - 1, Math.floor((i * count) / length)));
}
