import { describe, expect, it } from 'vitest';
import { attributeSpeakers, speakerLabels, speakerOf, type SpeakerTurn } from './speakers';

const word = (text: string, start: number, end: number) => ({ text: ` ${text}`, start, end });

const turns: SpeakerTurn[] = [
  { speaker: 'a', channel: 0, start: 0, end: 3.1 },
  { speaker: 'b', channel: 0, start: 3.0, end: 6 },
  { speaker: 'c', channel: 1, start: 0, end: 6 },
];

describe('attributeSpeakers', () => {
  it('splits a segment at the word where the speaker changes', () => {
    const segment = {
      text: ' one two three four five',
      start: 0.2,
      end: 5.5,
      channel: 0,
      words: [
        word('one', 0.2, 0.9),
        word('two', 1.0, 2.0),
        word('three', 2.1, 2.9),
        word('four', 3.2, 4.0),
        word('five', 4.1, 5.5),
      ],
    };
    const out = attributeSpeakers([segment], turns);
    expect(out.map((s) => [s.speaker, s.text, s.start, s.end])).toEqual([
      ['a', ' one two three', 0.2, 2.9],
      ['b', ' four five', 3.2, 5.5],
    ]);
    expect(out[1]!.words.map((w) => w.text)).toEqual([' four', ' five']);
  });

  it('does not split for one short word at a turn edge', () => {
    const segment = {
      text: ' one two three',
      start: 0.5,
      end: 3.05,
      channel: 0,
      words: [word('one', 0.5, 1.5), word('two', 1.6, 2.8), word('so', 2.95, 3.05)],
    };
    const edgeTurns: SpeakerTurn[] = [
      { speaker: 'a', channel: 0, start: 0, end: 2.9 },
      { speaker: 'b', channel: 0, start: 2.9, end: 6 },
    ];
    const out = attributeSpeakers([segment], edgeTurns);
    expect(out).toHaveLength(1);
    expect(out[0]!.speaker).toBe('a');
    expect(out[0]!.text).toBe(' one two three');
  });

  it("gives a channel's segments that channel's speaker, and a channel without turns its own", () => {
    const segment = { text: ' hi', start: 1, end: 2, channel: 1, words: [word('hi', 1, 2)] };
    expect(attributeSpeakers([segment], turns)[0]!.speaker).toBe('c');
    const other = { ...segment, channel: 2 };
    expect(attributeSpeakers([other], turns)[0]!.speaker).toBe('channel_2');
  });
});

describe('speakerLabels', () => {
  it('numbers speakers in order of first appearance in the transcript, then in the turns', () => {
    const labels = speakerLabels(
      [
        { speaker: 'x', start: 4, channel: 0 },
        { speaker: 'y', start: 1, channel: 1 },
        { speaker: 'x', start: 6, channel: 0 },
      ],
      [{ speaker: 'z', channel: 0, start: 0, end: 0.5 }],
    );
    expect([...labels.entries()]).toEqual([
      ['y', 'speaker_0'],
      ['x', 'speaker_1'],
      ['z', 'speaker_2'],
    ]);
  });
});

describe('speakerOf', () => {
  it('takes the speaker overlapping most, else the nearest turn', () => {
    expect(speakerOf(turns, 0, 2.5, 3.5)).toBe('a');
    expect(speakerOf(turns, 0, 2.9, 4)).toBe('b');
    expect(speakerOf(turns, 0, 7, 8)).toBe('b');
    expect(speakerOf(turns, 3, 0, 1)).toBeNull();
  });
});
