import type { WordEstimate } from './word-matching';

/**
 * How many script words, from `from`, to time in one window: those whose first estimates span
 * at most `budget` seconds (always one at least). A run ends early at the end of a line
 * (`lineEnds`: indices of a line's last word) when that keeps it at least half full, so that
 * lines are seldom cut between windows. Returns the end index (exclusive).
 */
export function nextRun(
  estimates: readonly WordEstimate[],
  lineEnds: ReadonlySet<number>,
  from: number,
  budget: number,
): number {
  const first = estimates[from]!.start;
  let to = from + 1;
  let lastLineEnd = -1;
  while (to < estimates.length && estimates[to]!.end - first <= budget) {
    if (lineEnds.has(to - 1)) lastLineEnd = to;
    to++;
  }
  if (to < estimates.length && lastLineEnd > from) {
    if (estimates[lastLineEnd - 1]!.end - first >= budget / 2) to = lastLineEnd;
  }
  return to;
}
