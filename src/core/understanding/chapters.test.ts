import { describe, expect, it } from 'vitest';
import stopWordLists from 'stopwords-iso/stopwords-iso.json' with { type: 'json' };
import type { Segment } from '../contract/response';
import {
  CHAPTER_DEFAULTS,
  findChapters,
  NO_CHAPTERS,
  ONE_CHAPTER_FEW_WORDS,
  ONE_CHAPTER_SHORT,
} from './chapters';
import type { StopWords } from './terms';
import { LANGUAGES } from '../../../tools/testing/speech';
import { topicTranscript } from '../../../tools/testing/topic-transcripts';

const lists = stopWordLists as Record<string, string[]>;
const stopWords: StopWords = (language) =>
  new Set((lists[language] ?? []).map((w) => w.toLowerCase()));

function segment(text: string, begin: number, end: number, extra: Partial<Segment> = {}): Segment {
  const words = text.split(' ');
  const step = (end - begin) / words.length;
  return {
    words: words.map((w, i) => ({
      word: ` ${w}`,
      time_begin: begin + i * step,
      time_end: begin + (i + 1) * step,
      confidence: 1,
    })),
    transcription: ` ${text}`,
    language: 'en',
    time_begin: begin,
    time_end: end,
    speaker: 'speaker_not_activated',
    channel: 'channel_0',
    ...extra,
  };
}

describe('findChapters', () => {
  it('finds where generated passages on different themes meet, in four languages', () => {
    let found = 0;
    let cases = 0;
    for (const language of LANGUAGES) {
      for (let seed = 1; seed <= 10; seed++) {
        const passages = 2 + (seed % 3);
        const t = topicTranscript(language, seed * 31 + 5, passages, [62, 80]);
        const { chapters, note } = findChapters(t.segments, t.duration, stopWords);
        expect(note).toBeNull();
        const ends = chapters.slice(0, -1).map((c) => c.last_segment);
        cases += 1;
        // Within one segment (a sentence of these transcripts) of each true boundary.
        if (
          ends.length === t.boundaries.length &&
          ends.every((e, i) => Math.abs(e - t.boundaries[i]!) <= 1)
        ) {
          found += 1;
        }
      }
    }
    expect(found / cases).toBeGreaterThanOrEqual(0.9);
  });

  it('covers every segment once, in order, and keeps each chapter 30 s or longer', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const t = topicTranscript('en', seed, 5, [31, 40]);
      const { chapters } = findChapters(t.segments, t.duration, stopWords);
      expect(chapters[0]!.first_segment).toBe(0);
      expect(chapters[chapters.length - 1]!.last_segment).toBe(t.segments.length - 1);
      chapters.forEach((c, i) => {
        expect(c.time_end - c.time_begin).toBeGreaterThanOrEqual(
          CHAPTER_DEFAULTS.minChapterSeconds,
        );
        expect(c.time_begin).toBe(t.segments[c.first_segment]!.time_begin);
        expect(c.time_end).toBe(t.segments[c.last_segment]!.time_end);
        if (i > 0) expect(c.first_segment).toBe(chapters[i - 1]!.last_segment + 1);
      });
    }
  });

  it('gives each chapter a headline, gist and keywords drawn from its own passage', () => {
    const t = topicTranscript('de', 44, 3, [50, 60]);
    const { chapters } = findChapters(t.segments, t.duration, stopWords);
    expect(chapters).toHaveLength(3);
    for (const c of chapters) {
      const own = t.segments
        .slice(c.first_segment, c.last_segment + 1)
        .map((s) => s.transcription)
        .join(' ');
      const ownWords = new Set(own.split(/\s+/).filter(Boolean));
      expect(c.keywords.length).toBe(CHAPTER_DEFAULTS.keywords);
      // German nouns keep their capital: keywords are written as the transcript writes them.
      for (const k of c.keywords) expect(ownWords).toContain(k);
      const headlineWords = c.headline.split(' ');
      expect(headlineWords.length).toBeLessThanOrEqual(CHAPTER_DEFAULTS.headlineWords);
      expect(own.toLowerCase()).toContain(c.headline.toLowerCase());
      expect(c.gist.split(', ').map((w) => w.toLowerCase())).toEqual(
        c.keywords.slice(0, 3).map((k) => k.toLowerCase()),
      );
      expect(own).toContain(c.summary.split(' ').slice(0, 3).join(' '));
    }
  });

  it('ends a punctuated chapter only where a sentence, a turn or a pause ends', () => {
    const t = topicTranscript('en', 9, 2, [60, 60]);
    const b = t.boundaries[0]!;
    // The segment at the true boundary runs on into the next without a pause or a full stop:
    // the boundary must move to a gap where a sentence ends.
    const punctuated = t.segments.map((s, i) => {
      const text = s.transcription.trim();
      const closed = i === b ? text : `${text}.`;
      const next = t.segments[i + 1];
      return segment(closed, s.time_begin, i === b && next ? next.time_begin : s.time_end);
    });
    const { chapters } = findChapters(punctuated, t.duration, stopWords);
    expect(chapters.length).toBe(2);
    expect(chapters[0]!.last_segment).not.toBe(b);
    expect(Math.abs(chapters[0]!.last_segment - b)).toBeLessThanOrEqual(2);
  });

  it('keeps a one-topic transcript one chapter', () => {
    const t = topicTranscript('fr', 3, 1, [300, 300]);
    const { chapters, note } = findChapters(t.segments, t.duration, stopWords);
    expect(note).toBeNull();
    expect(chapters).toHaveLength(1);
  });

  it('says why a short file or one with few words is one chapter, and an empty one none', () => {
    const t = topicTranscript('en', 2, 3, [35, 38]);
    const short = findChapters(t.segments, 119, stopWords);
    expect(short.note).toBe('One chapter: the recording is shorter than 2 minutes.');
    expect(short.note).toBe(ONE_CHAPTER_SHORT);
    expect(short.chapters).toHaveLength(1);

    const few = findChapters(
      [segment('the dog and the cat', 1, 3), segment('a red car', 200, 202)],
      300,
      stopWords,
    );
    expect(few.note).toBe(
      'One chapter: the transcript has too few words to tell where its topic changes.',
    );
    expect(few.note).toBe(ONE_CHAPTER_FEW_WORDS);
    expect(few.chapters).toHaveLength(1);
    expect(few.chapters[0]).toMatchObject({ first_segment: 0, last_segment: 1, time_end: 202 });

    const none = findChapters([], 300, stopWords);
    expect(none).toEqual({ chapters: [], note: 'No chapters: nothing was said.' });
    expect(none.note).toBe(NO_CHAPTERS);
  });

  it('leaves out a line nobody said', () => {
    const said = segment('the dog ran in the garden', 1, 4);
    const unsaid = { ...segment('the blue bird', 0, 0), not_said: true as const };
    const { chapters } = findChapters([said, unsaid], 30, stopWords);
    expect(chapters).toHaveLength(1);
    expect(chapters[0]).toMatchObject({ first_segment: 0, last_segment: 0 });
    expect(chapters[0]!.keywords).not.toContain('bird');
  });
});
