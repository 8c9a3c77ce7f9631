import { describe, expect, it } from 'vitest';
import { evenParts, pk, windowDiff, windowSize } from './segmentation-scores';

describe('segmentation scores', () => {
  const parts = (...lengths: number[]) => lengths.flatMap((n, part) => Array<number>(n).fill(part));
  const truth = parts(10, 10, 10);

  it('are 0 for the true segmentation and grow as boundaries move or go missing', () => {
    const k = windowSize(truth);
    expect(k).toBe(5);
    expect(pk(truth, truth, k)).toBe(0);
    expect(windowDiff(truth, truth, k)).toBe(0);
    const late = parts(11, 10, 9);
    const none = truth.map(() => 0);
    expect(pk(truth, late, k)).toBeGreaterThan(0);
    expect(pk(truth, none, k)).toBeGreaterThan(pk(truth, late, k));
    expect(windowDiff(truth, none, k)).toBeGreaterThan(windowDiff(truth, late, k));
    // Pairs 5 apart that straddle a true boundary: 10 of 25; a boundary one late costs 2 pairs.
    expect(pk(truth, none, k)).toBeCloseTo(0.4);
    expect(pk(truth, late, k)).toBeCloseTo(0.16);
  });

  it('spaces parts evenly', () => {
    expect(evenParts(6, 3)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(evenParts(5, 2)).toEqual([0, 0, 0, 1, 1]);
  });
});
