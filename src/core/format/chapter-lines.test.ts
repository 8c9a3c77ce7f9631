import { describe, expect, it } from 'vitest';
import type { Chapter } from '../contract/response';
import { renderChapterLines, renderVttChapters } from './chapter-lines';
import { clockTime } from './timecode';

const chapter = (headline: string, time_begin: number, time_end: number): Chapter => ({
  headline,
  gist: '',
  keywords: [],
  summary: '',
  time_begin,
  time_end,
  first_segment: 0,
  last_segment: 0,
});

describe('chapter lines', () => {
  it('lists chapters as a video description does, the first at 0:00', () => {
    const chapters = [
      chapter('Trains and  cars', 0.5, 45.7),
      chapter('Coffee & bread <today>', 46.5, 92.2),
      chapter('Months', 3725.2, 3800),
    ];
    expect(renderChapterLines(chapters)).toBe(
      '0:00 Trains and cars\n0:46 Coffee & bread <today>\n1:02:05 Months\n',
    );
    expect(renderVttChapters(chapters, 3801.5)).toBe(
      [
        'WEBVTT',
        '',
        '1',
        '00:00:00.000 --> 00:00:46.000',
        'Trains and cars',
        '',
        '2',
        '00:00:46.000 --> 01:02:05.000',
        'Coffee &amp; bread &lt;today&gt;',
        '',
        '3',
        '01:02:05.000 --> 01:03:21.500',
        'Months',
        '',
      ].join('\n'),
    );
  });

  it('leaves out a chapter that starts within 10 s of the one before', () => {
    const chapters = [chapter('One', 3, 20), chapter('Two', 9.5, 40), chapter('Three', 40, 80)];
    expect(renderChapterLines(chapters)).toBe('0:00 One\n0:40 Three\n');
    expect(renderVttChapters(chapters, 80)).toContain('00:00:00.000 --> 00:00:40.000\nOne');
  });

  it('writes nothing but the header for no chapters', () => {
    expect(renderChapterLines([])).toBe('');
    expect(renderVttChapters([], 10)).toBe('WEBVTT\n');
    expect(clockTime(59.99)).toBe('0:59');
    expect(clockTime(-1)).toBe('0:00');
  });
});
