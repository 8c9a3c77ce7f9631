import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../contract/response';
import { renderPrediction } from './prediction';
import { renderSrt } from './srt';
import { cueMilliseconds, formatTimecode, toMilliseconds } from './timecode';
import { renderTxt } from './txt';
import { renderVtt } from './vtt';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
const segments = JSON.parse(golden('segments.json')) as Segment[];

describe('subtitle renderers', () => {
  it('renders SRT byte for byte', () => {
    expect(renderSrt(segments)).toBe(golden('segments.srt'));
  });

  it('renders VTT byte for byte', () => {
    expect(renderVtt(segments)).toBe(golden('segments.vtt'));
  });

  it('renders TXT byte for byte', () => {
    expect(renderTxt(segments)).toBe(golden('segments.txt'));
  });

  it('follows the entry structure of spec 2.8', () => {
    const srt = renderSrt(segments);
    const entries = srt.trimEnd().split('\n\n');
    expect(entries).toHaveLength(segments.length);
    entries.forEach((entry, i) => {
      const lines = entry.split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toBe(String(i + 1));
      expect(lines[1]).toMatch(/^\d{2,}:\d{2}:\d{2},\d{3} --> \d{2,}:\d{2}:\d{2},\d{3}$/);
      expect(lines[2]?.startsWith(' ')).toBe(true);
    });
    const vtt = renderVtt(segments);
    expect(vtt.startsWith('WEBVTT\n\n1\n')).toBe(true);
    expect(vtt.split('\n')[3]).toMatch(/^\d{2,}:\d{2}:\d{2}\.\d{3} --> \d{2,}:\d{2}:\d{2}\.\d{3}$/);
  });

  it('renders no segments as an empty SRT and a header-only VTT', () => {
    expect(renderSrt([])).toBe('');
    expect(renderVtt([])).toBe('WEBVTT\n');
    expect(renderTxt([])).toBe('');
  });

  it('prefixes speakers in TXT when diarization labelled them', () => {
    expect(
      renderTxt([
        { transcription: ' Hello.', speaker: 'speaker_0' },
        { transcription: ' Hi!', speaker: 'speaker_1' },
      ]),
    ).toBe('speaker_0: Hello.\nspeaker_1: Hi!\n');
  });

  it('starts each SRT, VTT and TXT line with the speaker when diarization labelled them', () => {
    const spoken = JSON.parse(golden('speakers.json')) as Segment[];
    expect(renderSrt(spoken)).toBe(golden('speakers.srt'));
    expect(renderVtt(spoken)).toBe(golden('speakers.vtt'));
    expect(renderTxt(spoken)).toBe(golden('speakers.txt'));
    expect(renderPrediction(spoken, 'srt')).toBe(golden('speakers.srt'));
  });

  it('writes a named speaker as it is and leaves unlabelled segments without a prefix', () => {
    const cues = [
      { transcription: ' Hello.', time_begin: 0, time_end: 1, speaker: 'Anna Lee' },
      { transcription: ' Hi.', time_begin: 1, time_end: 2, speaker: 'speaker_not_activated' },
    ];
    expect(renderSrt(cues)).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\n Anna Lee: Hello.\n\n2\n00:00:01,000 --> 00:00:02,000\n Hi.\n',
    );
    expect(renderVtt([{ ...cues[0]!, speaker: 'Tom & Jerry' }])).toContain(
      '\n Tom &amp; Jerry: Hello.\n',
    );
    expect(renderTxt(cues)).toBe('Anna Lee: Hello.\nHi.\n');
  });

  it('puts the JSON of the segments in prediction for json', () => {
    expect(JSON.parse(renderPrediction(segments, 'json'))).toEqual(segments);
    expect(renderPrediction(segments, 'srt')).toBe(golden('segments.srt'));
  });
});

describe('a script line nobody said, and segments that take no time', () => {
  const seg = (text: string, begin: number, end: number, extra: Partial<Segment> = {}) =>
    ({
      words: [],
      transcription: ` ${text}`,
      language: 'en',
      time_begin: begin,
      time_end: end,
      speaker: 'speaker_not_activated',
      channel: 'channel_0',
      ...extra,
    }) satisfies Segment;
  const aligned = [
    seg('First line.', 1, 2.5),
    seg('Never said.', 2.5, 2.5, { not_said: true }),
    seg('Last line.', 4, 5),
  ];

  it('leaves the line out of SRT and TXT, and writes it as a NOTE in its place in VTT', () => {
    expect(renderSrt(aligned)).toBe(
      '1\n00:00:01,000 --> 00:00:02,500\n First line.\n\n2\n00:00:04,000 --> 00:00:05,000\n Last line.\n',
    );
    expect(renderTxt(aligned)).toBe('First line.\nLast line.\n');
    expect(renderVtt(aligned)).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\n First line.\n\nNOTE Not said: Never said.\n\n2\n00:00:04.000 --> 00:00:05.000\n Last line.\n',
    );
    expect(JSON.parse(renderPrediction(aligned, 'json'))[1]).toMatchObject({ not_said: true });
  });

  it('never writes an entry that ends where it starts', () => {
    const empty = [
      seg('a', 1, 1),
      seg('b', 1.3, 2),
      seg('c', 3, 3),
      seg('d', 3, 3.5),
      seg('e', 9, 9),
    ];
    const times = renderSrt(empty)
      .split('\n')
      .filter((line) => line.includes(' --> '));
    expect(times).toEqual([
      '00:00:01,000 --> 00:00:01,300',
      '00:00:01,300 --> 00:00:02,000',
      '00:00:03,000 --> 00:00:03,001',
      '00:00:03,000 --> 00:00:03,500',
      '00:00:09,000 --> 00:00:10,000',
    ]);
  });
});

describe('timecodes', () => {
  it('rounds to the millisecond and never lets an entry end before it starts', () => {
    expect(toMilliseconds(1.0005)).toBe(1001);
    expect(toMilliseconds(-2)).toBe(0);
    expect(toMilliseconds(Number.NaN)).toBe(0);
    expect(cueMilliseconds(2.9995, 2.9994)).toEqual([3000, 3000]);
    expect(cueMilliseconds(5, 4)).toEqual([5000, 5000]);
  });

  it('formats hours past 99 with more digits', () => {
    expect(formatTimecode(0, ',')).toBe('00:00:00,000');
    expect(formatTimecode(3_599_999, '.')).toBe('00:59:59.999');
    expect(formatTimecode(99 * 3_600_000 + 59 * 60_000 + 59_999, ',')).toBe('99:59:59,999');
    expect(formatTimecode(100 * 3_600_000, ',')).toBe('100:00:00,000');
  });
});
