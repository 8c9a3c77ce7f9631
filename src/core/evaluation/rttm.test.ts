import { describe, expect, it } from 'vitest';
import { formatRttm, parseRttm, rttmFiles } from './rttm';

const CORPUS = [
  ';; a comment line',
  'SPKR-INFO meeting1 1 <NA> <NA> <NA> unknown alice <NA> <NA>',
  'SPEAKER meeting1 1 0.50 2.25 <NA> <NA> alice <NA> <NA>',
  'SPEAKER meeting1 1 2.000 1.5 <NA> <NA> bob <NA> <NA>',
  'LEXEME meeting1 1 0.50 0.30 hello lex alice <NA>',
  '',
  'SPEAKER call2   1   10   4   <NA> <NA> carol <NA> <NA>',
  'SPEAKER meeting1 1 7.125 0.875 <NA> <NA> alice <NA> <NA>',
].join('\n');

describe('parseRttm', () => {
  it('reads SPEAKER lines and skips comments and other line types', () => {
    expect(parseRttm(CORPUS)).toEqual([
      { speaker: 'alice', start: 0.5, end: 2.75 },
      { speaker: 'bob', start: 2, end: 3.5 },
      { speaker: 'carol', start: 10, end: 14 },
      { speaker: 'alice', start: 7.125, end: 8 },
    ]);
  });

  it('keeps only the turns of the file asked for', () => {
    expect(parseRttm(CORPUS, { file: 'call2' })).toEqual([
      { speaker: 'carol', start: 10, end: 14 },
    ]);
    expect(parseRttm(CORPUS, { file: 'absent' })).toEqual([]);
  });

  it('reads Windows line ends', () => {
    expect(parseRttm('SPEAKER f 1 1 2 <NA> <NA> a <NA> <NA>\r\n')).toEqual([
      { speaker: 'a', start: 1, end: 3 },
    ]);
  });

  it('refuses a SPEAKER line it cannot read, naming the line', () => {
    expect(() => parseRttm('SPEAKER f 1 1 2 <NA>')).toThrow(/line 1/);
    expect(() => parseRttm('\nSPEAKER f 1 x 2 <NA> <NA> a <NA> <NA>')).toThrow(/line 2/);
    expect(() => parseRttm('SPEAKER f 1 1 -2 <NA> <NA> a <NA> <NA>')).toThrow(SyntaxError);
  });
});

describe('rttmFiles', () => {
  it('lists the file ids in order of first appearance', () => {
    expect(rttmFiles(CORPUS)).toEqual(['meeting1', 'call2']);
    expect(rttmFiles(';; nothing')).toEqual([]);
  });
});

describe('formatRttm', () => {
  it('writes one SPEAKER line a turn, times to the millisecond', () => {
    const text = formatRttm(
      [
        { speaker: 'speaker_0', start: 0.5, end: 2.75 },
        { speaker: 'Mary Ann', start: 3.0004, end: 4 },
      ],
      { file: 'conv' },
    );
    expect(text).toBe(
      'SPEAKER conv 1 0.500 2.250 <NA> <NA> speaker_0 <NA> <NA>\n' +
        'SPEAKER conv 1 3.000 1.000 <NA> <NA> Mary_Ann <NA> <NA>\n',
    );
  });

  it('reads back what it wrote', () => {
    const turns = [
      { speaker: 'a', start: 1.25, end: 2.5 },
      { speaker: 'b', start: 2, end: 6.125 },
    ];
    expect(parseRttm(formatRttm(turns, { file: 'x', channel: 2 }), { file: 'x' })).toEqual(turns);
  });

  it('writes nothing for no turns', () => {
    expect(formatRttm([], { file: 'x' })).toBe('');
  });
});
