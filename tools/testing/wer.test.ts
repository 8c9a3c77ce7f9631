import { describe, expect, it } from 'vitest';
import { normaliseWords, wordErrorRate } from './wer';

describe('word error rate', () => {
  it('ignores case and punctuation and counts edits over the reference', () => {
    expect(normaliseWords("Aujourd'hui, le Chat!")).toEqual(["aujourd'hui", 'le', 'chat']);
    expect(wordErrorRate('the cat sat', 'The cat, sat.')).toBe(0);
    expect(wordErrorRate('the cat sat down', 'the dog sat')).toBe(0.5);
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
  });
});
