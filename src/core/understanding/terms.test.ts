import { describe, expect, it } from 'vitest';
import { characteristicTerms, headlineFrom, keywordLine } from './keywords';
import { endsSentence, transcriptSentences } from './sentences';
import { cosine, termCounts, topicWords } from './terms';
import type { Segment } from '../contract/response';

const english = new Set(['the', 'a', 'and', 'is', 'in']);
const french = new Set(['le', 'la', 'et', 'est', 'l']);

describe('topicWords', () => {
  it('keeps content words in lower case, without stop words, numbers or single letters', () => {
    expect(topicWords('The Dog, and a cat is in 2024 x garden!', 'en', english)).toEqual([
      { term: 'dog', written: 'Dog' },
      { term: 'cat', written: 'cat' },
      { term: 'garden', written: 'garden' },
    ]);
  });

  it('splits elisions off and keeps accents composed', () => {
    const words = topicWords("l'école et la fe\u0301e", 'fr', french).map((w) => w.term);
    expect(words).toEqual(['école', 'fée']);
  });

  it('cuts a script written without spaces into words', () => {
    expect(topicWords('東京都に住んでいます', 'ja', new Set()).length).toBeGreaterThan(1);
  });
});

describe('term counts', () => {
  it('compares by cosine', () => {
    expect(cosine(termCounts(['a1', 'b1']), termCounts(['a1', 'b1']))).toBeCloseTo(1);
    expect(cosine(termCounts(['a1']), termCounts(['b1']))).toBe(0);
    expect(cosine(termCounts([]), termCounts(['b1']))).toBe(0);
  });
});

describe('sentences', () => {
  const seg = (words: [string, number, number][]): Segment => ({
    words: words.map(([word, time_begin, time_end]) => ({
      word,
      time_begin,
      time_end,
      confidence: 1,
    })),
    transcription: words.map((w) => w[0]).join(''),
    language: 'en',
    time_begin: words[0]![1],
    time_end: words[words.length - 1]![2],
    speaker: 'speaker_0',
    channel: 'channel_0',
  });

  it('cuts a segment at its sentence ends, keeping the words’ times', () => {
    const s = seg([
      [' Hello', 0, 0.5],
      [' there.', 0.5, 1],
      [' How', 1.2, 1.4],
      [' are', 1.4, 1.6],
      [' you?"', 1.6, 2],
      [' Fine', 2.5, 3],
    ]);
    expect(transcriptSentences([s])).toEqual([
      { text: 'Hello there.', time_begin: 0, time_end: 1, segment: 0 },
      { text: 'How are you?"', time_begin: 1.2, time_end: 2, segment: 0 },
      { text: 'Fine', time_begin: 2.5, time_end: 3, segment: 0 },
    ]);
    expect(endsSentence('done…')).toBe(true);
    expect(endsSentence('終わり。')).toBe(true);
    expect(endsSentence('and,')).toBe(false);
  });
});

describe('keywords', () => {
  const w = (...terms: string[]) => terms.map((t) => ({ term: t.toLowerCase(), written: t }));

  it('prefers what a part says that the others do not', () => {
    const [first, second] = characteristicTerms(
      [w('meeting', 'Budget', 'budget', 'meeting'), w('meeting', 'garden', 'tree', 'garden')],
      2,
    );
    expect(first!.map((k) => k.term)).toEqual(['budget', 'meeting']);
    expect(first![0]!.written).toBe('Budget');
    expect(second!.map((k) => k.term)).toEqual(['garden', 'tree']);
    expect(keywordLine(first!, 'en')).toBe('Budget, meeting');
  });

  it('titles a chapter with a few of its own words that hold its keywords', () => {
    const keywords = characteristicTerms(
      [w('budget', 'budget', 'price', 'price', 'market')],
      3,
    )[0]!;
    const headline = headlineFrom(
      ['we talked about the weather', 'the budget sets the price of the market today'],
      keywords,
      'en',
      6,
    );
    expect(headline).toBe('Budget sets the price');
    expect(headlineFrom([], keywords, 'en', 6)).toBe('Budget, price, market');
  });
});
