import { describe, expect, it } from 'vitest';
import { transcriptSpeechSeconds } from './speech-duration';

const word = (start: number, end: number) => ({ start, end });

describe('transcriptSpeechSeconds', () => {
  it('counts what VAD heard as a voice, and words found where it heard none', () => {
    const channels = [
      {
        index: 0,
        speech: [
          { start: 1, end: 3 },
          { start: 5, end: 9, heard: 'level' as const },
          { start: 12, end: 14, heard: 'level' as const },
        ],
      },
    ];
    // Words in the voice region add nothing; words in the first loud stretch count (the
    // pause between them does not); the second loud stretch holds none and does not count.
    const segments = [
      { channel: 0, words: [word(1.2, 1.8), word(1.8, 2.9)] },
      { channel: 0, words: [word(5.5, 6.5), word(6.5, 7), word(7.5, 8.25)] },
    ];
    expect(transcriptSpeechSeconds(channels, segments)).toBeCloseTo(2 + 1.5 + 0.75, 9);
  });

  it('counts a narration over music that VAD missed, channel by channel', () => {
    const channels = [
      { index: 0, speech: [{ start: 0, end: 10, heard: 'level' as const }] },
      { index: 1, speech: [{ start: 0, end: 10, heard: 'level' as const }] },
    ];
    const narrated = [{ channel: 1, words: [word(2, 3), word(2.5, 4)] }];
    expect(transcriptSpeechSeconds(channels, [])).toBe(0);
    expect(transcriptSpeechSeconds(channels, narrated)).toBeCloseTo(2, 9);
  });

  it('counts neither words of a channel not transcribed nor words that take no time', () => {
    const channels = [{ index: 0, speech: [{ start: 0, end: 1 }] }];
    const segments = [
      { channel: 2, words: [word(3, 5)] },
      { channel: 0, words: [word(4, 4)] },
    ];
    expect(transcriptSpeechSeconds(channels, segments)).toBe(1);
  });
});
