import { describe, expect, it } from 'vitest';
import type { Segment } from '../../core/contract/response';
import { namedEdits } from './result-voices';

const segment = (speaker: string, begin: number): Segment => ({
  words: [],
  transcription: ' Hello.',
  language: 'en',
  time_begin: begin,
  time_end: begin + 1,
  speaker,
  channel: 'channel_0',
});
const talk = [segment('speaker_0', 0), segment('speaker_1', 2), segment('speaker_2', 4)];

describe('the names stored voices give a result kept without being shown', () => {
  it('are one undo step a sure name, and no near one', () => {
    const edits = namedEdits(talk, [
      { speaker: 'speaker_1', name: 'Tom', distance: 0.1, sure: true },
      { speaker: 'speaker_2', name: 'Eve', distance: 0.35, sure: false },
      { speaker: 'speaker_0', name: 'Anna', distance: 0.05, sure: true },
    ]);
    expect(edits?.versions.map((v) => v.names)).toEqual([
      {},
      { speaker_1: 'Tom' },
      { speaker_1: 'Tom', speaker_0: 'Anna' },
    ]);
    expect(edits?.index).toBe(2);
    // The text is not touched: every step holds the recognised segments.
    expect(edits?.versions.every((v) => v.segments === talk)).toBe(true);
  });

  it('are no corrections at all when no voice is sure', () => {
    expect(namedEdits(talk, [])).toBeUndefined();
    expect(
      namedEdits(talk, [{ speaker: 'speaker_0', name: 'Anna', distance: 0.35, sure: false }]),
    ).toBeUndefined();
  });
});
