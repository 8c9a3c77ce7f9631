/**
 * Transcripts (the response's segments) of passages on different topics, without audio: each
 * passage's segments drawn from one vocabulary theme mixed with function words, timed at a
 * steady pace with pauses of the same lengths between all segments. For the chapter and summary
 * functions, where a recording would add nothing but time.
 */
import type { Segment } from '../../src/core/contract/response';
import { seededRandom, type TestLanguage } from './speech';
import { vocabularyThemes } from './topic-speech';

export interface TopicTranscript {
  segments: Segment[];
  duration: number;
  /** Index of the last segment of every passage but the last. */
  boundaries: number[];
}

export function topicTranscript(
  language: TestLanguage,
  seed: number,
  passages: number,
  passageSeconds: [number, number],
): TopicTranscript {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const { themes, functionWords } = vocabularyThemes(language);
  const chosen: number[] = [];
  while (chosen.length < passages) {
    const t = Math.floor(next() * themes.length);
    if (!chosen.includes(t)) chosen.push(t);
  }
  const segments: Segment[] = [];
  const boundaries: number[] = [];
  let time = 0.3;
  for (const t of chosen) {
    const theme = themes[t]!.words;
    const length = passageSeconds[0] + next() * (passageSeconds[1] - passageSeconds[0]);
    const start = time;
    while (time - start < length) {
      const words = Array.from({ length: 3 + Math.floor(next() * 10) }, () =>
        next() < 0.45 ? pick(theme) : pick(functionWords),
      );
      const begin = time;
      segments.push({
        words: words.map((w, i) => ({
          word: ` ${w}`,
          time_begin: begin + i * 0.4,
          time_end: begin + i * 0.4 + 0.35,
          confidence: 0.9,
        })),
        transcription: ` ${words.join(' ')}`,
        language,
        time_begin: begin,
        time_end: begin + words.length * 0.4,
        speaker: 'speaker_not_activated',
        channel: 'channel_0',
      });
      time = begin + words.length * 0.4 + 0.3 + next() * 0.6;
    }
    boundaries.push(segments.length - 1);
  }
  boundaries.pop();
  return { segments, duration: time, boundaries };
}
