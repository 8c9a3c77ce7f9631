import { describe, expect, it } from 'vitest';
import {
  SPEAKER_NOT_ACTIVATED,
  type Segment,
  type TranscriptionResponse,
} from '../contract/response';
import { renderSrt } from '../format/srt';
import {
  editSegmentText,
  editWord,
  editedResponse,
  mergeWithNext,
  predictionFormatOf,
  setSpeaker,
  shiftTimes,
  splitBefore,
} from './transcript-edits';

function segment(text: string, begin: number, speaker = SPEAKER_NOT_ACTIVATED): Segment {
  const words = text.split(' ').map((w, i) => ({
    word: ` ${w}`,
    time_begin: begin + i * 0.5,
    time_end: begin + i * 0.5 + 0.4,
    confidence: 0.8,
  }));
  return {
    words,
    transcription: ` ${text}`,
    language: 'en',
    time_begin: begin,
    time_end: begin + words.length * 0.5 - 0.1,
    speaker,
    channel: 'channel_0',
  };
}

const talk = [segment('the cat sat on the mat', 0), segment('then it slept', 4)];

describe('transcript edits', () => {
  it('corrects a word and the segment text follows; an empty word is removed', () => {
    const edited = editWord(talk, 0, 1, '  dog ');
    expect(edited[0]?.transcription).toBe(' the dog sat on the mat');
    expect(edited[0]?.words[1]).toEqual({ ...talk[0]?.words[1], word: ' dog' });
    expect(talk[0]?.transcription).toBe(' the cat sat on the mat');
    expect(editWord(talk, 1, 1, '')[1]?.transcription).toBe(' then slept');
    expect(editWord(talk, 5, 0, 'x')).toEqual(talk);
  });

  it('replaces a segment text, keeping the times of the words left as they were', () => {
    const [first] = editSegmentText(talk, 0, 'the black cat sat on the mat');
    expect(first?.transcription).toBe(' the black cat sat on the mat');
    expect(first?.words.map((w) => w.word.trim())).toEqual(
      'the black cat sat on the mat'.split(' '),
    );
    expect(first?.words[0]).toEqual(talk[0]?.words[0]);
    expect(first?.words.at(-1)).toEqual(talk[0]?.words.at(-1));
    // Inserted words sit between their neighbours, in order.
    const times = first?.words.map((w) => w.time_begin) ?? [];
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(first?.words[1]?.confidence).toBe(1);
    const [rewritten] = editSegmentText(talk, 0, 'a dog');
    expect(rewritten?.words.map((w) => w.word)).toEqual([' a', ' dog']);
    expect(rewritten?.words[0]?.time_begin).toBe(0);
    expect(rewritten?.words[1]?.time_end).toBeCloseTo(2.9);
  });

  it('splits before a word and merges back to the same text', () => {
    const split = splitBefore(talk, 0, 3);
    expect(split).toHaveLength(3);
    expect(split[0]?.transcription).toBe(' the cat sat');
    expect(split[1]?.transcription).toBe(' on the mat');
    expect(split[0]?.time_end).toBeCloseTo(1.4);
    expect(split[1]?.time_begin).toBeCloseTo(1.5);
    expect(splitBefore(talk, 0, 0)).toEqual(talk);
    const merged = mergeWithNext(split, 0);
    expect(merged).toHaveLength(2);
    expect(merged[0]?.transcription).toBe(talk[0]?.transcription);
    expect(merged[0]?.words).toEqual(talk[0]?.words);
    expect(mergeWithNext(talk, 1)).toEqual(talk);
  });

  it('shifts a segment and its words, never before zero', () => {
    const later = shiftTimes(talk, 1, 0.25);
    expect(later[1]?.time_begin).toBe(4.25);
    expect(later[1]?.words[0]?.time_begin).toBe(4.25);
    const early = shiftTimes(talk, 0, -3);
    expect(early[0]?.time_begin).toBe(0);
    expect(early[0]?.words[1]?.time_begin).toBe(0.5);
  });

  it('gives a segment to a speaker; a blank name changes nothing', () => {
    expect(setSpeaker(talk, 1, ' Ana ')[1]?.speaker).toBe('Ana');
    expect(setSpeaker(talk, 1, ' ')).toEqual(talk);
  });

  it('renders the edited response in the format it was asked in', () => {
    const response = {
      prediction: renderSrt(talk),
      prediction_raw: { transcription: talk, metadata: {}, speaker_mapping: [] },
    } as unknown as TranscriptionResponse;
    expect(predictionFormatOf(response)).toBe('srt');
    const edited = editedResponse(response, editWord(talk, 0, 1, 'dog'), 'srt');
    expect(edited.prediction).toContain(' the dog sat on the mat');
    expect(edited.prediction_raw.speaker_mapping).toHaveLength(2);
    expect(predictionFormatOf({ ...response, prediction: 'something else' })).toBe('json');
  });
});
