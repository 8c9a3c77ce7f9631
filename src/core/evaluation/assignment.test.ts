import { describe, expect, it } from 'vitest';
import { bestAssignment } from './assignment';

function total(weights: number[][], pairs: Array<[number, number]>): number {
  return pairs.reduce((sum, [r, c]) => sum + weights[r]![c]!, 0);
}

/** The best total by trying every injective pairing of the smaller side into the larger. */
function bruteForceBest(weights: number[][]): number {
  const rows = weights.length;
  const cols = weights[0]!.length;
  let best = -Infinity;
  const usedCols = new Array<boolean>(cols).fill(false);
  const usedRows = new Array<boolean>(rows).fill(false);
  const small = Math.min(rows, cols);
  // Choose, for each of the smaller side's items, a distinct partner on the larger side.
  const walk = (k: number, sum: number) => {
    if (k === small) {
      best = Math.max(best, sum);
      return;
    }
    if (rows <= cols) {
      for (let c = 0; c < cols; c++) {
        if (usedCols[c]) continue;
        usedCols[c] = true;
        walk(k + 1, sum + weights[k]![c]!);
        usedCols[c] = false;
      }
    } else {
      for (let r = 0; r < rows; r++) {
        if (usedRows[r]) continue;
        usedRows[r] = true;
        walk(k + 1, sum + weights[r]![k]!);
        usedRows[r] = false;
      }
    }
  };
  walk(0, 0);
  return best;
}

function isOneToOne(pairs: Array<[number, number]>): boolean {
  return (
    new Set(pairs.map((p) => p[0])).size === pairs.length &&
    new Set(pairs.map((p) => p[1])).size === pairs.length
  );
}

/** A small repeatable generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return state / 4294967296;
  };
}

describe('bestAssignment', () => {
  it('picks the pairing with the largest total, not the greedy one', () => {
    // Greedy takes 9 (0,0) and is left with 1 (1,1) = 10; the best is 8 + 7 = 15.
    const weights = [
      [9, 8],
      [7, 1],
    ];
    expect(bestAssignment(weights)).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('pairs every row of a wide matrix with a distinct column', () => {
    const weights = [
      [1, 5, 0, 2],
      [4, 6, 1, 0],
    ];
    const pairs = bestAssignment(weights);
    expect(pairs).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(total(weights, pairs)).toBe(9);
  });

  it('pairs every column of a tall matrix with a distinct row', () => {
    const weights = [
      [1, 4],
      [5, 6],
      [0, 1],
      [2, 0],
    ];
    const pairs = bestAssignment(weights);
    expect(pairs).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(total(weights, pairs)).toBe(9);
  });

  it('handles negative weights', () => {
    const weights = [
      [-1, -5],
      [-3, -2],
    ];
    expect(total(weights, bestAssignment(weights))).toBe(-3);
  });

  it('returns no pairs for an empty matrix', () => {
    expect(bestAssignment([])).toEqual([]);
    expect(bestAssignment([[], []])).toEqual([]);
  });

  it('refuses weights that are not finite', () => {
    expect(() => bestAssignment([[1, NaN]])).toThrow(RangeError);
    expect(() => bestAssignment([[Infinity]])).toThrow(/not finite/);
  });

  it('matches a brute-force search on random small matrices', () => {
    const next = random(12345);
    for (let trial = 0; trial < 400; trial++) {
      const rows = 1 + Math.floor(next() * 6);
      const cols = 1 + Math.floor(next() * 6);
      // Integers half the time, so that ties are common.
      const integers = next() < 0.5;
      const weights = Array.from({ length: rows }, () =>
        Array.from({ length: cols }, () =>
          integers ? Math.floor(next() * 5) : (next() - 0.3) * 10,
        ),
      );
      const pairs = bestAssignment(weights);
      expect(pairs).toHaveLength(Math.min(rows, cols));
      expect(isOneToOne(pairs)).toBe(true);
      expect(total(weights, pairs)).toBeCloseTo(bruteForceBest(weights), 9);
    }
  });
});
