import type { Segment } from '../contract/response';

/** A sentence of a transcript: its words as written, where it was said, and its segment. */
export interface TranscriptSentence {
  text: string;
  time_begin: number;
  time_end: number;
  /** Index of its segment in the transcription. */
  segment: number;
}

/**
 * A word ends a sentence when it ends with a full stop, a question or exclamation mark or an
 * ellipsis, in any script, before closing quotes or brackets.
 */
const SENTENCE_END = /[.!?…。！？؟।]["'”’»)\]]*$/u;

export function endsSentence(text: string): boolean {
  return SENTENCE_END.test(text.trim());
}

/**
 * The transcript cut into sentences: each segment at its words' sentence ends, keeping the
 * words' times. A segment without marks is one sentence (recognisers that write no punctuation
 * close a segment where the speaker pauses). A line nobody said has no time: it is left out.
 */
export function transcriptSentences(segments: readonly Segment[]): TranscriptSentence[] {
  const sentences: TranscriptSentence[] = [];
  segments.forEach((segment, index) => {
    if (segment.not_said) return;
    const words = segment.words.filter((w) => w.word.trim() !== '');
    if (words.length === 0) {
      const text = segment.transcription.trim();
      if (text !== '') {
        sentences.push({
          text,
          time_begin: segment.time_begin,
          time_end: segment.time_end,
          segment: index,
        });
      }
      return;
    }
    let first = 0;
    words.forEach((word, i) => {
      if (i === words.length - 1 || endsSentence(word.word)) {
        const part = words.slice(first, i + 1);
        sentences.push({
          text: part
            .map((w) => w.word)
            .join('')
            .replace(/\s+/g, ' ')
            .trim(),
          time_begin: part[0]!.time_begin,
          time_end: part[part.length - 1]!.time_end,
          segment: index,
        });
        first = i + 1;
      }
    });
  });
  return sentences;
}
