import type { Segment } from '../contract/response';
import { editSegmentText } from './transcript-edits';

/**
 * Find and replace over a transcript's segments. A segment is searched as its words read,
 * joined by single spaces; a replacement goes through the editor's own text correction, so
 * that a word replaced by one word keeps its times and a change in the number of words is
 * timed as a typed correction is.
 */

export interface FindOptions {
  /** Only matches that neither start nor end inside a word. */
  wholeWords: boolean;
  /** Letters must match in case. */
  matchCase: boolean;
}

/** One match: where it lies in its segment's text (see `segmentText`). */
export interface FindMatch {
  segmentIndex: number;
  /** Offsets in the segment's text, end exclusive. */
  start: number;
  end: number;
  /** The text matched, as it reads in the transcript. */
  text: string;
}

/** A segment's text as searched: its words, trimmed, joined by single spaces. */
export function segmentText(segment: Segment): string {
  if (segment.words.length === 0) return segment.transcription.replace(/\s+/g, ' ').trim();
  return segment.words
    .map((w) => w.word.trim())
    .filter((w) => w !== '')
    .join(' ');
}

/** The search text as the transcript's text is searched: spaces collapsed, ends trimmed. */
function normalised(query: string): string {
  return query.replace(/\s+/g, ' ').trim();
}

const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}_]';

function pattern(query: string, options: FindOptions): RegExp | null {
  const text = normalised(query);
  if (text === '') return null;
  // Every character taken literally.
  const literal = text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const body = options.wholeWords ? `(?<!${WORD_CHAR})${literal}(?!${WORD_CHAR})` : literal;
  return new RegExp(body, options.matchCase ? 'gu' : 'giu');
}

/** Every match of the search text, in transcript order; none for an empty search. */
export function findMatches(
  segments: readonly Segment[],
  query: string,
  options: FindOptions,
): FindMatch[] {
  const re = pattern(query, options);
  if (!re) return [];
  const matches: FindMatch[] = [];
  segments.forEach((segment, segmentIndex) => {
    const text = segmentText(segment);
    for (const m of text.matchAll(re)) {
      const start = m.index;
      matches.push({ segmentIndex, start, end: start + m[0].length, text: m[0] });
    }
  });
  return matches;
}

/** The indexes of the words of a segment that a match covers, wholly or in part. */
export function matchedWords(segment: Segment, match: FindMatch): number[] {
  const covered: number[] = [];
  let offset = 0;
  segment.words.forEach((w, i) => {
    const word = w.word.trim();
    if (word === '') return;
    const begin = offset;
    const end = begin + word.length;
    if (begin < match.end && end > match.start) covered.push(i);
    offset = end + 1;
  });
  return covered;
}

/** One match replaced; the segments unchanged (as a copy) where the match is no longer there. */
export function replaceMatch(
  segments: readonly Segment[],
  match: FindMatch,
  replacement: string,
): Segment[] {
  const segment = segments[match.segmentIndex];
  if (!segment) return [...segments];
  const text = segmentText(segment);
  if (text.slice(match.start, match.end) !== match.text) return [...segments];
  const next = `${text.slice(0, match.start)}${normalised(replacement)}${text.slice(match.end)}`;
  return editSegmentText(segments, match.segmentIndex, next);
}

/**
 * Where one-by-one replacing goes on after `replaced` was replaced: the place, among the
 * matches of the segments as they now read, of the first match after the replacement text (so
 * that a replacement that holds the search text is not found again); 0 to go round.
 */
export function nextMatchIndex(
  matches: readonly FindMatch[],
  replaced: FindMatch,
  replacement: string,
): number {
  const after = replaced.start + normalised(replacement).length;
  const index = matches.findIndex(
    (m) =>
      m.segmentIndex > replaced.segmentIndex ||
      (m.segmentIndex === replaced.segmentIndex && m.start >= after),
  );
  return Math.max(0, index);
}

/**
 * Every match replaced, as one list of segments (one correction, so one undo step), with how
 * many were replaced. Matches are replaced from the last to the first, so that each one's
 * place in its segment's text still holds when its turn comes.
 */
export function replaceAll(
  segments: readonly Segment[],
  query: string,
  replacement: string,
  options: FindOptions,
): { segments: Segment[]; count: number } {
  const matches = findMatches(segments, query, options);
  let next = [...segments];
  for (const match of [...matches].reverse()) next = replaceMatch(next, match, replacement);
  return { segments: next, count: matches.length };
}

/** "3 matches", "1 match", "No matches". */
export function matchCountSentence(count: number): string {
  if (count === 0) return 'No matches';
  return count === 1 ? '1 match' : `${count} matches`;
}
