import type { RecognisedSegment } from '../../../core/assemble/response';
import {
  comparedWords,
  phraseLoopCut,
  repeatsEarlierLine,
} from '../../../core/decoding/repetition';
import { FALLBACK, isSure, type WindowDecode } from './decode-window';

/** Lines of earlier windows that a new line is compared with. */
const REMEMBERED_LINES = 8;
/** Lines shorter than this (in words) are never taken for a loop: "yes", "thank you". */
const MIN_LOOP_WORDS = 3;

/**
 * Cuts repeated-phrase loops from a channel's segments, window by window:
 * - inside a window whose every decoding temperature repeated itself (the compression-ratio
 *   fallback failed throughout, and the likeliest decode was kept), a phrase said three times
 *   or more in a row is cut to its first saying;
 * - across windows, a line that repeats one of the last lines of earlier windows is dropped
 *   when the decoding rules were unsure of it or it comes from a stretch VAD heard no voice
 *   in, and the third time in a row a line is written, whatever the rules said. People repeat
 *   themselves, so a sure line said twice is kept.
 */
export class RepeatGuard {
  private readonly earlier: string[] = [];

  check(
    segments: readonly RecognisedSegment[],
    decode: WindowDecode,
    levelOnly: boolean,
  ): RecognisedSegment[] {
    const looped = decode.compressionRatio > FALLBACK.compressionRatio;
    const doubtful = levelOnly || !isSure(decode);
    const kept: RecognisedSegment[] = [];
    for (const original of segments) {
      const segment = looped ? withoutLoops(original) : original;
      if (segment.words.length === 0 && segment.text.trim() === '') continue;
      const last = this.earlier.slice(-2);
      const third =
        last.length === 2 &&
        repeatsEarlierLine(segment.text, [last[0]!], MIN_LOOP_WORDS) &&
        repeatsEarlierLine(segment.text, [last[1]!], MIN_LOOP_WORDS);
      if (third || (doubtful && repeatsEarlierLine(segment.text, this.earlier, MIN_LOOP_WORDS))) {
        continue;
      }
      kept.push(segment);
    }
    for (const segment of kept) this.earlier.push(segment.text);
    this.earlier.splice(0, Math.max(0, this.earlier.length - REMEMBERED_LINES));
    return kept;
  }
}

/** The segment with each phrase loop in its words cut to the first saying. */
function withoutLoops(segment: RecognisedSegment): RecognisedSegment {
  const compared = segment.words.map((w) => comparedWords(w.text).join(' '));
  const kept = phraseLoopCut(compared).map((i) => segment.words[i]!);
  if (kept.length === segment.words.length) return segment;
  return {
    ...segment,
    words: kept,
    text: kept
      .map((w) => w.text)
      .join('')
      .trim(),
    end: kept.at(-1)?.end ?? segment.start,
  };
}
