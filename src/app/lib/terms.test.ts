import { describe, expect, it } from 'vitest';
import { TERMS_HINT_LIMIT, termsHint, termsProblem } from './terms';

describe('terms', () => {
  it('makes the hint from one term a line, blank lines left out', () => {
    expect(termsHint(' Murmur \r\n\nWebGPU\n  Dr. Okonkwo\n')).toBe('Murmur, WebGPU, Dr. Okonkwo');
    expect(termsHint('  \n')).toBe('');
  });

  it('refuses terms longer than the hint keeps, naming the field', () => {
    expect(termsProblem('x'.repeat(TERMS_HINT_LIMIT))).toBeNull();
    expect(termsProblem(`${'x'.repeat(200)}\n${'y'.repeat(199)}`)).toBe(
      'Terms are too long for the vocabulary hint (transcription_hint): joined they make 401 characters, and at most 400 are kept. Remove some terms.',
    );
  });
});
