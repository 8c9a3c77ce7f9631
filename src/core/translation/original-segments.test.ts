import { describe, expect, it } from 'vitest';
import type { Segment } from '../contract/response';
import { hasTranslation, originalSegments } from './original-segments';

const translated: Segment = {
  words: [
    { word: ' bonjour', time_begin: 1, time_end: 1.5, confidence: 0.8 },
    { word: ' monde', time_begin: 1.5, time_end: 2, confidence: 0.6 },
  ],
  transcription: ' bonjour monde',
  language: 'fr',
  time_begin: 1,
  time_end: 3,
  speaker: 'speaker_not_activated',
  channel: 'channel_0',
  source_transcription: ' hello big world',
  source_language: 'en',
};
const untouched: Segment = {
  words: [{ word: ' hola', time_begin: 4, time_end: 4.4, confidence: 0.9 }],
  transcription: ' hola',
  language: 'es',
  time_begin: 4,
  time_end: 4.4,
  speaker: 'speaker_not_activated',
  channel: 'channel_0',
};

describe('originalSegments', () => {
  it('gives a translated segment back its recognised text and language at its own times', () => {
    const [original, other] = originalSegments([translated, untouched]);
    expect(original).toMatchObject({
      transcription: ' hello big world',
      language: 'en',
      time_begin: 1,
      time_end: 3,
    });
    expect(original).not.toHaveProperty('source_transcription');
    expect(original!.words.map((w) => w.word)).toEqual([' hello', ' big', ' world']);
    expect(original!.words[0]!.time_begin).toBe(1);
    expect(original!.words.at(-1)!.time_end).toBe(3);
    for (const w of original!.words) expect(w.confidence).toBeCloseTo(0.7);
    expect(other).toBe(untouched);
  });

  it('tells a translated result from one that is not', () => {
    expect(hasTranslation([untouched])).toBe(false);
    expect(hasTranslation([untouched, translated])).toBe(true);
  });
});
