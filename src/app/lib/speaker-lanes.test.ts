import { describe, expect, it } from 'vitest';
import { SPEAKER_NOT_ACTIVATED, type SpeakerSpan } from '../../core/contract/response';
import { speakerColours } from './speaker-colour';
import { speakerLanes, timelineDuration, timelinePercent } from './speaker-lanes';

const span = (speaker: string, time_begin: number, time_end: number, channel = 'channel_0') => ({
  speaker,
  channel,
  time_begin,
  time_end,
});

describe('speaker lanes', () => {
  it('makes one lane a speaker, in order of first appearance', () => {
    const lanes = speakerLanes([
      span('speaker_1', 5, 7),
      span('speaker_0', 0, 2),
      span('speaker_1', 3, 4),
    ]);
    expect(lanes.map((l) => l.speaker)).toEqual(['speaker_0', 'speaker_1']);
    expect(lanes[1]?.blocks).toEqual([
      { begin: 3, end: 4 },
      { begin: 5, end: 7 },
    ]);
    expect(lanes[1]?.seconds).toBe(3);
  });

  it('merges spans of one speaker that touch, overlap or leave a short gap', () => {
    const mapping: SpeakerSpan[] = [
      span('speaker_0', 0, 2),
      span('speaker_0', 2, 3),
      span('speaker_0', 3.5, 4),
      span('speaker_0', 3.8, 5, 'channel_1'),
      span('speaker_0', 9, 10),
    ];
    expect(speakerLanes(mapping)[0]?.blocks).toEqual([
      { begin: 0, end: 5 },
      { begin: 9, end: 10 },
    ]);
    expect(speakerLanes(mapping, 0)[0]?.blocks).toEqual([
      { begin: 0, end: 3 },
      { begin: 3.5, end: 5 },
      { begin: 9, end: 10 },
    ]);
  });

  it('makes no lane without diarization, and never a block that ends before it starts', () => {
    expect(speakerLanes([span(SPEAKER_NOT_ACTIVATED, 0, 3)])).toEqual([]);
    expect(speakerLanes([span('speaker_0', 4, 3)])[0]?.blocks).toEqual([{ begin: 4, end: 4 }]);
  });

  it('spans the media, or the speech when the duration is unknown', () => {
    const lanes = speakerLanes([span('speaker_0', 0, 8)]);
    expect(timelineDuration(lanes, 20)).toBe(20);
    expect(timelineDuration(lanes, Number.NaN)).toBe(8);
    expect(timelineDuration(lanes, 5)).toBe(8);
    expect(timelinePercent(5, 20)).toBe(25);
    expect(timelinePercent(30, 20)).toBe(100);
    expect(timelinePercent(1, 0)).toBe(0);
  });

  it('gives the first speakers different colours, the same wherever they are shown', () => {
    const chips = ['speaker_0', 'speaker_1', 'speaker_2'].map((s) => speakerColours(s).chip);
    expect(new Set(chips).size).toBe(3);
    expect(speakerColours('speaker_7')).toEqual(speakerColours('speaker_7'));
  });
});
