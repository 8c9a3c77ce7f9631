import { SENTIMENTS, type SentimentShares } from '../contract/response';

/** Whole percentages of each sentiment heard, in one line: "75% positive · 25% negative". */
export function sharesText(shares: SentimentShares): string {
  if (shares.seconds === 0) return 'No sentence with a sentiment';
  return SENTIMENTS.filter((s) => shares[s] > 0)
    .map((s) => `${Math.round(shares[s] * 100)}% ${s}`)
    .join(' · ');
}
