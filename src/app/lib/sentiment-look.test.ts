import { describe, expect, it } from 'vitest';
import { SENTIMENTS } from '../../core/contract/response';
import { SENTIMENT_LOOKS } from './sentiment-look';

describe('SENTIMENT_LOOKS', () => {
  it('gives every sentiment its own word and sign, so colour is never all that tells them apart', () => {
    const looks = SENTIMENTS.map((s) => SENTIMENT_LOOKS[s]);
    expect(looks.map((l) => l.label)).toEqual(['Positive', 'Negative', 'Neutral', 'Mixed']);
    expect(new Set(looks.map((l) => l.sign)).size).toBe(4);
  });
});
