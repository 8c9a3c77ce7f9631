import type { Segment, Word } from '../contract/response';
import { roundToMillisecond } from '../units';
import { spreadWords } from './words';

/** Whether any segment of a result was translated (it then carries its recognised text). */
export function hasTranslation(segments: readonly Segment[]): boolean {
  return segments.some((s) => s.source_transcription !== undefined);
}

/**
 * The segments in the language they were spoken in, for a download of the original beside the
 * translation: each translated segment's recognised text and language, at the segment's own
 * times. The response keeps no times for the recognised words, so its words are spread over
 * the segment as a translation's are; segments that were not translated are unchanged.
 */
export function originalSegments(segments: readonly Segment[]): Segment[] {
  return segments.map((segment) => {
    const { source_transcription: text, source_language: language, ...rest } = segment;
    if (text === undefined) return segment;
    const spread = spreadWords(
      text,
      segment.time_begin,
      segment.time_end,
      segment.words.map((w) => ({
        text: w.word,
        start: w.time_begin,
        end: w.time_end,
        confidence: w.confidence,
      })),
    );
    const words: Word[] = spread.map((w) => {
      const begin = roundToMillisecond(w.start);
      return {
        word: ` ${w.text}`,
        time_begin: begin,
        time_end: Math.max(begin, roundToMillisecond(w.end)),
        confidence: w.confidence,
      };
    });
    return { ...rest, transcription: text, language: language ?? segment.language, words };
  });
}
