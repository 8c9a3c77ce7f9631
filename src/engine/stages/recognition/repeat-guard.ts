import type { RecognisedSegment } from '../../../core/assemble/response';
import {
  comparedWords,
  phraseLoopCut,
  repeatsEarlierLine,
} from '../../../core/decoding/repetition';
import type { RecognitionSettings } from '../../stage-settings';
import { isSure, type WindowDecode } from './decode-window';

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

  constructor(private readonly settings: RecognitionSettings) {}

  check(
    segments: readonly RecognisedSegment[],
    decode: WindowDecode,
    levelOnly: boolean,
  ): RecognisedSegment[] {
    const { fallback, minLoopWords, rememberedLines } = this.settings;
    const looped = decode.compressionRatio > fallback.compressionRatio;
    const doubtful = levelOnly || !isSure(decode, fallback);
    const kept: RecognisedSegment[] = [];
    for (const original of segments) {
      const segment = looped ? withoutLoops(original) : original;
      if (segment.words.length === 0 && segment.text.trim() === '') continue;
      const last = this.earlier.slice(-2);
      const third =
        last.length === 2 &&
        repeatsEarlierLine(segment.text, [last[0]!], minLoopWords) &&
        repeatsEarlierLine(segment.text, [last[1]!], minLoopWords);
      if (third || (doubtful && repeatsEarlierLine(segment.text, this.earlier, minLoopWords))) {
        continue;
      }
      kept.push(segment);
    }
    for (const segment of kept) this.earlier.push(segment.text);
    this.earlier.splice(0, Math.max(0, this.earlier.length - rememberedLines));
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
