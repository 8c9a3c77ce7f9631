import { describe, expect, it } from 'vitest';
import { EnrolmentError, matchingSpeaker, resultStretches, stretchesOf } from './enrol';

const result = (mapping: unknown, transcription: unknown = []) => ({
  prediction_raw: { transcription, speaker_mapping: mapping },
});

describe('which speaker of a fresh run a saved result means', () => {
  const saved = [
    { speaker: 'Anna', start: 0, end: 4 },
    { speaker: 'speaker_1', start: 4, end: 9 },
    { speaker: 'Anna', start: 9, end: 12 },
  ];

  it('is the one sharing most time with the label, whatever it is called in the fresh run', () => {
    const found = [
      { speaker: 'speaker_1', start: 0, end: 4.2 },
      { speaker: 'speaker_0', start: 4.2, end: 9.5 },
      { speaker: 'speaker_1', start: 9.5, end: 12 },
    ];
    expect(matchingSpeaker(saved, 'Anna', found)).toBe('speaker_1');
    expect(matchingSpeaker(saved, 'speaker_1', found)).toBe('speaker_0');
  });

  it('refuses a label the result does not have, naming the labels it has', () => {
    expect(() => stretchesOf(saved, 'speaker_7')).toThrow(
      new EnrolmentError('has no speaker "speaker_7"; its speakers are "Anna", "speaker_1".'),
    );
  });

  it("refuses when nobody of the fresh run speaks in the label's time", () => {
    expect(() => matchingSpeaker(saved, 'Anna', [{ speaker: 'x', start: 20, end: 30 }])).toThrow(
      'says "Anna" speaks where nobody is heard in the media: is it the result of this media?',
    );
  });
});

describe("a saved result's speakers", () => {
  it('are its speaker_mapping spans', () => {
    expect(
      resultStretches(
        result([{ speaker: 'speaker_0', channel: 'channel_0', time_begin: 1, time_end: 2.5 }]),
      ),
    ).toEqual([{ speaker: 'speaker_0', start: 1, end: 2.5 }]);
  });

  it('refuse a result made without diarization, and what is no result at all', () => {
    expect(() => resultStretches(result([]))).toThrow(
      'names no speakers: it was made without telling speakers apart (--toggle_diarization true).',
    );
    expect(() => resultStretches({ text: 'hello' })).toThrow(
      'is not a transcription result: it has no prediction_raw.transcription.',
    );
  });
});
