import { describe, expect, it } from 'vitest';
import { sharesText } from './sentiment-shares';

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
