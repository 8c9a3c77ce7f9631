import type { Segment, SpeakerSpan, TranscriptionResponse, Word } from '../contract/response';
import { OUTPUT_FORMATS, type OutputFormat } from '../contract/request';
import { renderPrediction } from '../format/prediction';

/**
 * Corrections a person makes to a transcript. Each returns a new list and leaves the one it
 * was given alone, so that a history of lists is an undo stack.
 */

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** A segment's text from its words: the words joined, with the spec's leading space. */
function withText(segment: Segment, words: Word[]): Segment {
  const text = words
    .map((w) => w.word.trim())
    .filter((w) => w !== '')
    .join(' ');
  return { ...segment, words, transcription: text === '' ? '' : ` ${text}` };
}

function replaceAt(segments: readonly Segment[], index: number, ...items: Segment[]): Segment[] {
  const next = [...segments];
  next.splice(index, 1, ...items);
  return next;
}

/** A word's text corrected; an empty text removes the word. */
export function editWord(
  segments: readonly Segment[],
  segmentIndex: number,
  wordIndex: number,
  text: string,
): Segment[] {
  const segment = segments[segmentIndex];
  const word = segment?.words[wordIndex];
  if (!segment || !word) return [...segments];
  const clean = text.replace(/\s+/g, ' ').trim();
  const words =
    clean === ''
      ? segment.words.filter((_, i) => i !== wordIndex)
      : segment.words.map((w, i) => (i === wordIndex ? { ...w, word: ` ${clean}` } : w));
  return replaceAt(segments, segmentIndex, withText(segment, words));
}

/**
 * A segment's whole text replaced. Words kept at the start and the end keep their times; the
 * words typed in between share the time of the words they replace, so that word highlighting
 * and readable subtitles stay close to the speech.
 */
export function editSegmentText(
  segments: readonly Segment[],
  segmentIndex: number,
  text: string,
): Segment[] {
  const segment = segments[segmentIndex];
  if (!segment) return [...segments];
  const typed = text.split(/\s+/).filter((t) => t !== '');
  const old = segment.words;
  let head = 0;
  while (head < typed.length && head < old.length && old[head]?.word.trim() === typed[head]) head++;
  let tail = 0;
  while (
    tail < typed.length - head &&
    tail < old.length - head &&
    old[old.length - 1 - tail]?.word.trim() === typed[typed.length - 1 - tail]
  ) {
    tail++;
  }
  const replaced = old.slice(head, old.length - tail);
  const inserted = typed.slice(head, typed.length - tail);
  const before = old[head - 1];
  const after = old[old.length - tail];
  const begin = replaced[0]?.time_begin ?? before?.time_end ?? segment.time_begin;
  const end = replaced.at(-1)?.time_end ?? after?.time_begin ?? segment.time_end;
  const step = (Math.max(begin, end) - begin) / Math.max(1, inserted.length);
  const middle: Word[] = inserted.map((t, i) => ({
    word: ` ${t}`,
    time_begin: round(begin + i * step),
    time_end: round(begin + (i + 1) * step),
    // Typed by a person: as sure as a word can be.
    confidence: 1,
  }));
  const words = [...old.slice(0, head), ...middle, ...old.slice(old.length - tail)];
  return replaceAt(segments, segmentIndex, withText(segment, words));
}

/** A segment and the one after it made one (the first one's speaker and language kept). */
export function mergeWithNext(segments: readonly Segment[], segmentIndex: number): Segment[] {
  const first = segments[segmentIndex];
  const second = segments[segmentIndex + 1];
  if (!first || !second) return [...segments];
  const merged = withText(
    {
      ...first,
      time_begin: Math.min(first.time_begin, second.time_begin),
      time_end: Math.max(first.time_end, second.time_end),
    },
    [...first.words, ...second.words],
  );
  const next = [...segments];
  next.splice(segmentIndex, 2, merged);
  return next;
}

/** A segment split in two before one of its words (not the first). */
export function splitBefore(
  segments: readonly Segment[],
  segmentIndex: number,
  wordIndex: number,
): Segment[] {
  const segment = segments[segmentIndex];
  if (!segment || wordIndex <= 0 || wordIndex >= segment.words.length) return [...segments];
  const head = segment.words.slice(0, wordIndex);
  const tail = segment.words.slice(wordIndex);
  const cut = (tail[0] as Word).time_begin;
  const lastHead = head.at(-1) as Word;
  return replaceAt(
    segments,
    segmentIndex,
    withText({ ...segment, time_end: Math.max(segment.time_begin, lastHead.time_end) }, head),
    withText({ ...segment, time_begin: Math.min(cut, segment.time_end) }, tail),
  );
}

/** A segment and its words moved in time (never before 0). */
export function shiftTimes(
  segments: readonly Segment[],
  segmentIndex: number,
  seconds: number,
): Segment[] {
  const segment = segments[segmentIndex];
  if (!segment) return [...segments];
  const delta = Math.max(seconds, -segment.time_begin);
  const move = (t: number) => round(t + delta);
  return replaceAt(segments, segmentIndex, {
    ...segment,
    time_begin: move(segment.time_begin),
    time_end: move(segment.time_end),
    words: segment.words.map((w) => ({
      ...w,
      time_begin: move(w.time_begin),
      time_end: move(w.time_end),
    })),
  });
}

/** A segment given to another speaker. */
export function setSpeaker(
  segments: readonly Segment[],
  segmentIndex: number,
  speaker: string,
): Segment[] {
  const segment = segments[segmentIndex];
  const name = speaker.trim();
  if (!segment || name === '') return [...segments];
  return replaceAt(segments, segmentIndex, { ...segment, speaker: name });
}

/** The output format a response's `prediction` was rendered in. */
export function predictionFormatOf(response: TranscriptionResponse): OutputFormat {
  const segments = response.prediction_raw.transcription;
  return (
    OUTPUT_FORMATS.find((f) => renderPrediction(segments, f) === response.prediction) ?? 'json'
  );
}

/**
 * The response as it reads after corrections: the segments, the speaker mapping and the
 * prediction (in the format it was asked in) all follow the edited segments.
 */
export function editedResponse(
  response: TranscriptionResponse,
  segments: readonly Segment[],
  format: OutputFormat,
): TranscriptionResponse {
  return {
    ...response,
    prediction: renderPrediction(segments, format),
    prediction_raw: {
      ...response.prediction_raw,
      transcription: [...segments],
      speaker_mapping: speakerMapping(segments),
    },
  };
}

/** The spec's speaker mapping of a list of segments: one entry a segment. */
export function speakerMapping(segments: readonly Segment[]): SpeakerSpan[] {
  return segments.map((s) => ({
    speaker: s.speaker,
    channel: s.channel,
    time_begin: s.time_begin,
    time_end: s.time_end,
  }));
}
