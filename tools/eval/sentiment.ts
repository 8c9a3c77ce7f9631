/**
 * Sentence sentiment against labels a person gave (tools/eval/sentiment/*.tsv, see its
 * README): macro-F1 and accuracy of Murmur's rules, beside two baselines: every sentence given
 * the most frequent label, and the same word lists summed without any rule (no negation,
 * degree, contrast or phrase; the sum's sign is the label, 0 is neutral).
 *
 * usage: tsx tools/eval/sentiment.ts
 */
import { readFileSync } from 'node:fs';
import { sentenceSentiment } from '../../src/core/understanding/sentence-sentiment';
import { wordValence, type SentimentLexicon } from '../../src/core/understanding/sentiment-lexicon';
import { textWords } from '../../src/core/understanding/terms';
import { loadSentimentLexicons } from '../../src/engine/stages/understanding';
import { nodeWordLists } from '../../src/hosts/node';
import { accuracy, macroF1, majorityLabel } from './classification-scores';

const LANGUAGES = ['en', 'fr', 'de', 'es'];

function labelled(language: string): { label: string; text: string }[] {
  const file = new URL(`./sentiment/${language}.tsv`, import.meta.url);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [label, text] = line.split('\t');
      return { label: label!, text: text! };
    });
}

function wordsOnly(text: string, lexicon: SentimentLexicon): string {
  const sum = textWords(text, lexicon.language).reduce(
    (total, w) => total + wordValence(lexicon, w.term),
    0,
  );
  return sum > 0 ? 'positive' : sum < 0 ? 'negative' : 'neutral';
}

const lexicons = await loadSentimentLexicons(nodeWordLists, LANGUAGES);
const rows: string[][] = [];
const all = {
  truth: [] as string[],
  rules: [] as string[],
  words: [] as string[],
  major: [] as string[],
};
for (const language of LANGUAGES) {
  const lexicon = lexicons(language)!;
  const set = labelled(language);
  const truth = set.map((s) => s.label);
  const rules = set.map((s) => sentenceSentiment(s.text, lexicon).sentiment);
  const words = set.map((s) => wordsOnly(s.text, lexicon));
  const major = truth.map(() => majorityLabel(truth));
  all.truth.push(...truth);
  all.rules.push(...rules);
  all.words.push(...words);
  all.major.push(...major);
  rows.push(row(language, set.length, truth, rules, words, major));
}
rows.push(row('all', all.truth.length, all.truth, all.rules, all.words, all.major));

function row(
  name: string,
  n: number,
  truth: string[],
  rules: string[],
  words: string[],
  major: string[],
): string[] {
  const f = (x: number) => x.toFixed(3);
  return [
    name,
    String(n),
    f(macroF1(truth, rules)),
    f(accuracy(truth, rules)),
    f(macroF1(truth, words)),
    f(macroF1(truth, major)),
    (macroF1(truth, rules) / macroF1(truth, major)).toFixed(2),
  ];
}

const header = [
  'language',
  'sentences',
  'rules F1',
  'rules acc',
  'words-only F1',
  'majority F1',
  'rules/majority',
];
console.log(header.join('\t'));
for (const r of rows) console.log(r.join('\t'));
