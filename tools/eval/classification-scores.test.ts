import { describe, expect, it } from 'vitest';
import { accuracy, macroF1, majorityLabel } from './classification-scores';

describe('classification scores', () => {
  it('gives 1 for a perfect labelling and averages F1 over labels', () => {
    expect(macroF1(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    // a: tp 1, fp 1, fn 0 -> 2/3; b: tp 0 -> 0; mean 1/3.
    expect(macroF1(['a', 'b'], ['a', 'a'])).toBeCloseTo(1 / 3);
    expect(accuracy(['a', 'b'], ['a', 'a'])).toBe(0.5);
  });

  it('takes the most frequent label, the first on a tie', () => {
    expect(majorityLabel(['b', 'a', 'a'])).toBe('a');
    expect(majorityLabel(['b', 'a'])).toBe('b');
  });
});
