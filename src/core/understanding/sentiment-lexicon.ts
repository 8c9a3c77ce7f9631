/**
 * A sentiment lexicon: words and phrases with a valence from -4 (most negative) to +4 (most
 * positive), the scale the sentiment rules are written for, with the rule words of its
 * language. Built from kept word lists (valences -5..+5) and Murmur's own additions, which fill
 * gaps in a list and win where both have a word.
 */
import { SENTIMENT_RULE_WORDS, type SentimentRuleWords } from './sentiment-words';
import { textWords } from './terms';

export interface SentimentLexicon {
  language: string;
  /** Valence of each word or phrase (words joined by one space), in comparable form. */
  valence: ReadonlyMap<string, number>;
  /** The most words in one entry. */
  longestPhrase: number;
  rules: SentimentRuleWords;
}

/** Word lists score from -5 to +5; the rules' constants are tuned for -4 to +4. */
const LIST_TO_RULE_SCALE = 4 / 5;

/**
 * The lexicon of a language from its word lists, later lists overriding earlier ones; `null`
 * for a language without rule words. Rule words (negations, degree and contrast words) carry no
 * valence of their own: a list that scores "no" as negative would count every negation twice.
 */
export function sentimentLexicon(
  language: string,
  lists: readonly Readonly<Record<string, number>>[],
): SentimentLexicon | null {
  const rules = Object.hasOwn(SENTIMENT_RULE_WORDS, language)
    ? SENTIMENT_RULE_WORDS[language]!
    : null;
  if (rules === null) return null;
  const valence = new Map<string, number>();
  let longestPhrase = 1;
  for (const list of lists) {
    for (const [entry, score] of Object.entries(list)) {
      if (!Number.isFinite(score) || score === 0) continue;
      const words = textWords(entry, language).map((w) => w.term);
      if (words.length === 0) continue;
      if (words.length === 1 && isRuleWord(words[0]!, rules)) continue;
      valence.set(words.join(' '), score * LIST_TO_RULE_SCALE);
      longestPhrase = Math.max(longestPhrase, words.length);
    }
  }
  return { language, valence, longestPhrase, rules };
}

export function isRuleWord(term: string, rules: SentimentRuleWords): boolean {
  return rules.negations.has(term) || rules.degree.has(term) || rules.contrast.has(term);
}

/**
 * Other forms a word's lexicon entry may be under: word lists hold one form of most words
 * ("gut", "bueno"), speech uses them all ("guten", "buena"). Tried only when the word itself is
 * not listed, longest ending first.
 */
const OTHER_FORMS: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  en: [
    ['ies', 'y'],
    ['es', ''],
    ['s', ''],
  ],
  fr: [
    ['euses', 'eux'],
    ['euse', 'eux'],
    ['ives', 'if'],
    ['ive', 'if'],
    ['nnes', 'n'],
    ['nne', 'n'],
    ['elles', 'el'],
    ['elle', 'el'],
    ['es', ''],
    ['e', ''],
    ['s', ''],
    ['x', ''],
  ],
  de: [
    ['en', ''],
    ['er', ''],
    ['es', ''],
    ['em', ''],
    ['e', ''],
    ['n', ''],
    ['s', ''],
    ['t', 'en'],
  ],
  es: [
    ['ísimas', 'o'],
    ['ísimos', 'o'],
    ['ísima', 'o'],
    ['ísimo', 'o'],
    ['as', 'o'],
    ['os', 'o'],
    ['a', 'o'],
    ['es', ''],
    ['s', ''],
  ],
};

/** A word's valence, from its own entry or, failing that, another form's; 0 when unlisted. */
export function wordValence(lexicon: SentimentLexicon, term: string): number {
  const own = lexicon.valence.get(term);
  if (own !== undefined) return own;
  for (const [ending, replacement] of OTHER_FORMS[lexicon.language] ?? []) {
    if (!term.endsWith(ending)) continue;
    const stem = term.slice(0, term.length - ending.length);
    if ([...stem].length < 3) continue;
    const other = lexicon.valence.get(stem + replacement);
    if (other !== undefined) return other;
  }
  return 0;
}
