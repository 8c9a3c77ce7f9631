import { describe, expect, it } from 'vitest';
import { SENTIMENTS } from '../../core/contract/response';
import { SENTIMENT_LOOKS, sharesText } from './sentiment-look';

describe('sharesText', () => {
  it('says the share of each sentiment that was heard, in whole percentages', () => {
    expect(
      sharesText({ seconds: 8, positive: 0.375, negative: 0.125, neutral: 0.5, mixed: 0 }),
    ).toBe('38% positive · 13% negative · 50% neutral');
  });

  it('says so when no sentence has a sentiment', () => {
    expect(sharesText({ seconds: 0, positive: 0, negative: 0, neutral: 0, mixed: 0 })).toBe(
      'No sentence with a sentiment',
    );
  });
});

describe('SENTIMENT_LOOKS', () => {
  it('gives every sentiment its own word and sign, so colour is never all that tells them apart', () => {
    const looks = SENTIMENTS.map((s) => SENTIMENT_LOOKS[s]);
    expect(looks.map((l) => l.label)).toEqual(['Positive', 'Negative', 'Neutral', 'Mixed']);
    expect(new Set(looks.map((l) => l.sign)).size).toBe(4);
  });
});
