import { describe, expect, it } from 'vitest';
import stopWordLists from 'stopwords-iso/stopwords-iso.json' with { type: 'json' };
import { findChapters, sentencesByChapter } from './chapters';
import { keySentences, sentenceCentrality } from './sentence-rank';
import { transcriptSentences } from './sentences';
import { MAX_CONCISE_SENTENCES, MAX_PART_SENTENCES, summarise } from './summary';
import type { StopWords } from './terms';
import { topicTranscript } from '../../../tools/testing/topic-transcripts';
import type { Segment } from '../contract/response';

const lists = stopWordLists as Record<string, string[]>;
const stopWords: StopWords = (language) =>
  new Set((lists[language] ?? []).map((w) => w.toLowerCase()));

function summaryOf(
  segments: Segment[],
  duration: number,
  type: 'general' | 'concise' | 'bullet_points',
) {
  const { chapters } = findChapters(segments, duration, stopWords);
  return { chapters, summary: summarise(sentencesByChapter(segments, chapters, stopWords), type) };
}

describe('summarise', () => {
  it('is made of the transcript’s own sentences, in order, within each type’s length', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const t = topicTranscript(seed % 2 ? 'es' : 'en', seed, 3, [45, 70]);
      const sentences = transcriptSentences(t.segments);
      const index = (s: { text: string; time_begin: number }) =>
        sentences.findIndex((x) => x.text === s.text && x.time_begin === s.time_begin);
      for (const type of ['general', 'concise', 'bullet_points'] as const) {
        const { chapters, summary } = summaryOf(t.segments, t.duration, type);
        expect(summary.type).toBe(type);
        const at = summary.sentences.map(index);
        expect(at.every((i) => i >= 0)).toBe(true);
        expect([...at].sort((a, b) => a - b)).toEqual(at);
        if (type === 'concise') {
          expect(summary.sentences.length).toBe(MAX_CONCISE_SENTENCES);
          expect(summary.text).toBe(summary.sentences.map((s) => s.text).join(' '));
        } else {
          expect(summary.sentences.length).toBeGreaterThanOrEqual(chapters.length);
          expect(summary.sentences.length).toBeLessThanOrEqual(
            chapters.length * MAX_PART_SENTENCES,
          );
        }
        if (type === 'general') {
          const paragraphs = summary.text.split('\n\n');
          expect(paragraphs).toEqual(chapters.map((c) => c.summary));
        }
        if (type === 'bullet_points') {
          expect(summary.text.split('\n')).toEqual(summary.sentences.map((s) => `- ${s.text}`));
        }
      }
    }
  });

  it('gives the same summary for the same transcript', () => {
    const t = topicTranscript('fr', 12, 3, [50, 60]);
    expect(summaryOf(t.segments, t.duration, 'general')).toEqual(
      summaryOf(structuredClone(t.segments), t.duration, 'general'),
    );
  });

  it('is empty, not refused, when nothing was said', () => {
    expect(summaryOf([], 10, 'general').summary).toEqual({
      type: 'general',
      text: '',
      sentences: [],
    });
    expect(summaryOf([], 10, 'concise').summary.sentences).toEqual([]);
  });
});

describe('sentence ranking', () => {
  it('ranks highest the sentence that shares most with the others', () => {
    const terms = [['dog', 'cat'], ['dog', 'cat', 'bird'], ['car'], ['bird', 'dog']];
    const scores = sentenceCentrality(terms);
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    expect(scores.indexOf(Math.min(...scores))).toBe(2);
    expect(keySentences(terms, 2)).toEqual([0, 1]);
  });

  it('breaks ties by the earlier sentence, and asks nothing of an empty text', () => {
    expect(keySentences([['a1'], ['a1'], ['a1']], 2)).toEqual([0, 1]);
    expect(sentenceCentrality([])).toEqual([]);
    expect(keySentences([], 3)).toEqual([]);
  });
});
