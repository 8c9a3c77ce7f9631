import { describe, expect, it } from 'vitest';
import { SPEAKER_NOT_ACTIVATED, type Segment } from '../contract/response';
import {
  findMatches,
  matchCountSentence,
  matchedWords,
  nextMatchIndex,
  replaceAll,
  replaceMatch,
  segmentText,
} from './find-replace';
import { editSegmentText } from './transcript-edits';

function segment(text: string, begin: number): Segment {
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
    speaker: SPEAKER_NOT_ACTIVATED,
    channel: 'channel_0',
  };
}

const talk = [
  segment('The cat sat on the mat', 0),
  segment('then the category was scattered', 4),
  segment('costs rose (a lot) at 3.5% a.k.a. c++', 8),
];
const plain = { wholeWords: false, matchCase: false };
const whole = { wholeWords: true, matchCase: false };

describe('find', () => {
  it('finds parts of words, or only whole words', () => {
    expect(findMatches(talk, 'cat', plain).map((m) => [m.segmentIndex, m.text])).toEqual([
      [0, 'cat'],
      [1, 'cat'],
      [1, 'cat'],
    ]);
    expect(findMatches(talk, 'cat', whole)).toEqual([
      { segmentIndex: 0, start: 4, end: 7, text: 'cat' },
    ]);
  });

  it('ignores case unless asked to match it', () => {
    expect(findMatches(talk, 'the', whole).map((m) => m.text)).toEqual(['The', 'the', 'the']);
    expect(
      findMatches(talk, 'the', { wholeWords: true, matchCase: true }).map((m) => m.segmentIndex),
    ).toEqual([0, 1]);
    expect(findMatches(talk, 'THE', { wholeWords: true, matchCase: true })).toEqual([]);
  });

  it('finds several words within a segment, spaces in the search collapsed', () => {
    expect(findMatches(talk, '  sat   ON the ', plain)).toEqual([
      { segmentIndex: 0, start: 8, end: 18, text: 'sat on the' },
    ]);
    expect(matchedWords(talk[0] as Segment, findMatches(talk, 'sat on', plain)[0]!)).toEqual([
      2, 3,
    ]);
    expect(matchedWords(talk[1] as Segment, findMatches(talk, 'ego', plain)[0]!)).toEqual([2]);
  });

  it('takes regular-expression characters literally', () => {
    expect(findMatches(talk, '(a lot)', plain).map((m) => m.text)).toEqual(['(a lot)']);
    expect(findMatches(talk, '3.5%', whole).map((m) => m.text)).toEqual(['3.5%']);
    expect(findMatches(talk, 'a.k.a.', plain).map((m) => m.text)).toEqual(['a.k.a.']);
    expect(findMatches(talk, 'c++', plain).map((m) => m.text)).toEqual(['c++']);
    expect(findMatches(talk, '.', plain)).toHaveLength(4);
    expect(findMatches(talk, 'a.c', plain)).toEqual([]);
  });

  it('finds nothing for an empty search or a text not there', () => {
    expect(findMatches(talk, '   ', plain)).toEqual([]);
    expect(findMatches(talk, 'dog', plain)).toEqual([]);
    expect(replaceAll(talk, 'dog', 'cat', plain)).toEqual({ segments: talk, count: 0 });
  });

  it('says how many matches there are', () => {
    expect(matchCountSentence(0)).toBe('No matches');
    expect(matchCountSentence(1)).toBe('1 match');
    expect(matchCountSentence(3)).toBe('3 matches');
  });
});

describe('replace', () => {
  it('replaces one match, a word by a word keeping its times', () => {
    const [first] = findMatches(talk, 'cat', whole);
    const edited = replaceMatch(talk, first!, 'dog');
    expect(segmentText(edited[0]!)).toBe('The dog sat on the mat');
    expect(edited[0]?.transcription).toBe(' The dog sat on the mat');
    const [before, after] = [talk[0]!.words[1]!, edited[0]!.words[1]!];
    expect([after.time_begin, after.time_end]).toEqual([before.time_begin, before.time_end]);
    expect(edited[0]!.words.map((w) => w.time_begin)).toEqual(
      talk[0]!.words.map((w) => w.time_begin),
    );
    expect(edited[1]).toBe(talk[1]);
    expect(talk[0]?.transcription).toBe(' The cat sat on the mat');
  });

  it('times a change in the number of words as the editor’s own text correction does', () => {
    const [match] = findMatches(talk, 'sat on', plain);
    expect(replaceMatch(talk, match!, 'was lying on top of')).toEqual(
      editSegmentText(talk, 0, 'The cat was lying on top of the mat'),
    );
    const [cat] = findMatches(talk, 'cat', whole);
    const removed = replaceMatch(talk, cat!, '');
    expect(removed[0]?.transcription).toBe(' The sat on the mat');
    expect(removed[0]?.words).toHaveLength(5);
  });

  it('leaves the segments alone when the match is no longer there', () => {
    const [match] = findMatches(talk, 'cat', whole);
    const moved = replaceMatch(talk, match!, 'dog');
    expect(replaceMatch(moved, match!, 'cow')).toEqual(moved);
  });

  it('replaces all matches in one list and counts them, parts of words included', () => {
    const { segments, count } = replaceAll(talk, 'cat', 'dog', plain);
    expect(count).toBe(3);
    expect(segments.map(segmentText)).toEqual([
      'The dog sat on the mat',
      'then the dogegory was sdogtered',
      talk[2] && segmentText(talk[2]),
    ]);
    expect(segments[1]!.words.map((w) => [w.time_begin, w.time_end])).toEqual(
      talk[1]!.words.map((w) => [w.time_begin, w.time_end]),
    );
    expect(findMatches(segments, 'cat', plain)).toEqual([]);
  });

  it('replaces every match of a segment, the words between keeping their times', () => {
    const { segments, count } = replaceAll(talk, 'the', 'a', whole);
    expect(count).toBe(3);
    expect(segments.map((s) => s.transcription).slice(0, 2)).toEqual([
      ' a cat sat on a mat',
      ' then a category was scattered',
    ]);
    expect(segments[0]!.words.map((w) => w.time_begin)).toEqual(
      talk[0]!.words.map((w) => w.time_begin),
    );
    expect(segments[0]!.words[2]).toBe(talk[0]!.words[2]);
  });

  it('one by one, in transcript order, each replacement leaves the next match found', () => {
    let segments: Segment[] = [...talk];
    const seen: string[] = [];
    for (;;) {
      const [next] = findMatches(segments, 'the', whole);
      if (!next) break;
      seen.push(`${next.segmentIndex}:${next.start}`);
      segments = replaceMatch(segments, next, 'a');
    }
    expect(seen).toEqual(['0:0', '0:13', '1:5']);
    expect(segments.map(segmentText).slice(0, 2)).toEqual([
      'a cat sat on a mat',
      'then a category was scattered',
    ]);
  });

  it('goes on after a replacement that holds the search text, and round at the end', () => {
    const [first] = findMatches(talk, 'cat', plain);
    const edited = replaceMatch(talk, first!, 'cats');
    const matches = findMatches(edited, 'cat', plain);
    expect(matches.map((m) => `${m.segmentIndex}:${m.start}`)).toEqual(['0:4', '1:9', '1:23']);
    expect(nextMatchIndex(matches, first!, 'cats')).toBe(1);
    const last = matches[2]!;
    const again = replaceMatch(edited, last, 'dog');
    expect(nextMatchIndex(findMatches(again, 'cat', plain), last, 'dog')).toBe(0);
  });
});
