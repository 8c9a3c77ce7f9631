/**
 * The sentiment of one sentence from a lexicon and rules of the VADER family (Hutto and Gilbert,
 * 2014): each sentiment word's valence, made stronger or weaker by degree words before it and by
 * capitals in a sentence that is not all capitals, turned around by a negation near it, weighed
 * down before a contrast word and up after it, and raised by exclamation marks; the sum
 * normalised to a compound score in (-1, 1).
 */
import type { Sentiment } from '../contract/response';
import { isRuleWord, wordValence, type SentimentLexicon } from './sentiment-lexicon';
import { textWords, type TopicWord } from './terms';

export interface SentenceSentiment {
  sentiment: Sentiment;
  /** How sure: see `SENTIMENT_RULES` and docs/service.md. From 0 to 1. */
  confidence: number;
  /** The normalised sum of valences, from -1 (most negative) to 1 (most positive). */
  compound: number;
}

/** The constants of the rules, with the values the VADER paper measured against people. */
export const SENTIMENT_RULES = {
  /** How far before a word a degree word or negation reaches, in words. */
  reach: 3,
  /** A degree word's step, fading with distance. */
  degreeStep: 0.293,
  degreeFade: [1, 0.95, 0.9],
  /** A word in capitals in a sentence that has lower case too. */
  capitalsStep: 0.733,
  /** A negated word's valence is multiplied by this. */
  negation: -0.74,
  /** Before and after a contrast word. */
  beforeContrast: 0.5,
  afterContrast: 1.5,
  /** Each exclamation mark, up to four. */
  exclamationStep: 0.292,
  exclamationsCounted: 4,
  /** The normalisation's constant: compound = sum / sqrt(sum^2 + alpha). */
  alpha: 15,
  /** Below this compound score (either side) a sentence is neutral. */
  neutralBelow: 0.05,
  /** Mixed when the weaker side carries at least this share of the stronger side's weight. */
  mixedRatio: 0.5,
} as const;

interface Scored {
  start: number;
  end: number;
  valence: number;
  negated: boolean;
  /** A listed phrase that holds its own negation ("pas bon"): no negation turns it again. */
  holdsNegation: boolean;
}

function inCapitals(word: TopicWord): boolean {
  return (
    [...word.written].length > 1 &&
    word.written === word.written.toLocaleUpperCase() &&
    word.written !== word.written.toLocaleLowerCase()
  );
}

/** The sentiment words of a sentence, longest lexicon entry first at each word. */
function sentimentWords(words: readonly TopicWord[], lexicon: SentimentLexicon): Scored[] {
  const found: Scored[] = [];
  let i = 0;
  while (i < words.length) {
    let matched = 0;
    for (let n = Math.min(lexicon.longestPhrase, words.length - i); n >= 2; n--) {
      const terms = words.slice(i, i + n).map((w) => w.term);
      const valence = lexicon.valence.get(terms.join(' '));
      if (valence !== undefined) {
        const holdsNegation = terms.some((t) => lexicon.rules.negations.has(t));
        found.push({ start: i, end: i + n - 1, valence, negated: false, holdsNegation });
        matched = n;
        break;
      }
    }
    if (matched === 0) {
      const term = words[i]!.term;
      const valence = isRuleWord(term, lexicon.rules) ? 0 : wordValence(lexicon, term);
      if (valence !== 0) {
        found.push({ start: i, end: i, valence, negated: false, holdsNegation: false });
      }
      matched = 1;
    }
    i += matched;
  }
  return found;
}

export function sentenceSentiment(text: string, lexicon: SentimentLexicon): SentenceSentiment {
  const R = SENTIMENT_RULES;
  const { rules } = lexicon;
  const words = textWords(text, lexicon.language);
  const scored = sentimentWords(words, lexicon);
  const someLower = words.some((w) => !inCapitals(w));

  for (const item of scored) {
    const sign = Math.sign(item.valence);
    if (someLower && inCapitals(words[item.start]!)) item.valence += sign * R.capitalsStep;
    for (let k = 1; k <= R.reach && item.start - k >= 0; k++) {
      const before = words[item.start - k]!;
      const degree = rules.degree.get(before.term);
      if (degree !== undefined) {
        let step = R.degreeStep * R.degreeFade[k - 1]!;
        if (someLower && inCapitals(before)) step += R.capitalsStep;
        item.valence += sign * degree * step;
      }
      if (rules.negations.has(before.term) && !item.holdsNegation) item.negated = true;
    }
  }
  // A negation that may follow its word ("ich mag es nicht") reaches back only when no
  // sentiment word follows it, where it would apply as usual.
  words.forEach((word, at) => {
    if (!rules.trailingNegations.has(word.term)) return;
    if (scored.some((s) => s.start <= at && at <= s.end)) return;
    if (scored.some((s) => s.start > at && s.start - at <= R.reach)) return;
    const before = scored.filter((s) => s.end < at && at - s.end <= R.reach).at(-1);
    if (before !== undefined && !before.holdsNegation) before.negated = true;
  });

  const contrastAt = words.findIndex((w) => rules.contrast.has(w.term));
  let sum = 0;
  let positive = 0;
  let negative = 0;
  for (const item of scored) {
    let valence = item.negated ? item.valence * R.negation : item.valence;
    if (contrastAt >= 0) valence *= item.start < contrastAt ? R.beforeContrast : R.afterContrast;
    sum += valence;
    if (valence > 0) positive += valence;
    else negative -= valence;
  }
  if (sum !== 0) {
    const marks = Math.min(R.exclamationsCounted, (text.match(/[!！¡]/gu) ?? []).length);
    sum += Math.sign(sum) * marks * R.exclamationStep;
  }
  const compound = sum / Math.sqrt(sum * sum + R.alpha);
  return { ...verdict(compound, positive, negative), compound: round(compound) };
}

function verdict(
  compound: number,
  positive: number,
  negative: number,
): Omit<SentenceSentiment, 'compound'> {
  const R = SENTIMENT_RULES;
  const weaker = Math.min(positive, negative);
  const stronger = Math.max(positive, negative);
  if (weaker > 0 && weaker >= R.mixedRatio * stronger) {
    return { sentiment: 'mixed', confidence: round(weaker / stronger) };
  }
  if (Math.abs(compound) < R.neutralBelow) {
    return { sentiment: 'neutral', confidence: round(1 - Math.abs(compound) / R.neutralBelow / 2) };
  }
  return {
    sentiment: compound > 0 ? 'positive' : 'negative',
    confidence: round(Math.abs(compound)),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
