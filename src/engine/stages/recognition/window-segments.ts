import type { ProvisionalSegment } from '../../../core/assemble/provisional-segment';
import type { RecognisedSegment } from '../../../core/assemble/response';
import { alignmentMatrix, tokenStartFrames } from '../../../core/decoding/alignment';
import { splitSegments } from '../../../core/decoding/segments';
import { SECONDS_PER_TIMESTAMP } from '../../../core/decoding/vocabulary';
import { groupWords, type TimedToken } from '../../../core/decoding/words';
import type { WindowDecode } from './decode-window';
import type { LoadedWhisper } from '../../ports';

export interface WindowSegments {
  segments: RecognisedSegment[];
  /** Seconds of the window the segments account for (the seek advances by this). */
  consumed: number;
  /** Text tokens of the window, to condition the next one on. */
  textTokens: number[];
}

/** Encoder frames are 0.02 s apart, as timestamps are. */
const frameOf = (seconds: number) => Math.round(seconds / SECONDS_PER_TIMESTAMP);

/**
 * Turns one decoded window into segments with word timings. Times are relative to the window;
 * `toFileTime` maps them to the file's timeline. Word times come from dynamic time warping of
 * the alignment heads' attention within the segment's own frames, so every word lies inside
 * its segment.
 */
export function windowSegments(
  model: LoadedWhisper,
  decode: WindowDecode,
  audioSeconds: number,
  language: string,
  channel: number,
  toFileTime: (windowSeconds: number) => number,
): WindowSegments {
  const { vocab } = model;
  const split = splitSegments(decode.sampled, vocab, audioSeconds, decode.finished);
  const segments: RecognisedSegment[] = [];
  const textTokens: number[] = [];
  for (const segment of split.segments) {
    const tokens = segment.tokenIndices.map((i) => decode.sampled[i]!);
    const text = model.decodeText(tokens).trim();
    if (text === '') continue;
    textTokens.push(...tokens);
    const first = segment.tokenIndices[0]!;
    const last = segment.tokenIndices.at(-1)!;
    const rows = segment.tokenIndices.map((i) => decode.attention[i]!);
    rows.push(decode.attention[last + 1] ?? decode.finalAttention);
    const startFrame = frameOf(segment.start);
    const endFrame = Math.max(startFrame + 1, frameOf(segment.end));
    const heads = rows[0]!.length;
    const weights = Array.from({ length: heads }, (_, h) =>
      rows.map((row) => row[h]!.subarray(startFrame, endFrame)),
    );
    const matrix = alignmentMatrix(weights, endFrame - startFrame, model.medianFilterWidth);
    const starts = tokenStartFrames(matrix);
    const timeOf = (k: number) =>
      Math.min(
        segment.end,
        segment.start + (starts[k] ?? endFrame - startFrame) * SECONDS_PER_TIMESTAMP,
      );
    const timed: TimedToken[] = unicodeUnits(model, tokens).map((unit) => ({
      text: unit.text,
      start: timeOf(unit.from),
      end: timeOf(unit.to),
      probability: geometricMean(decode.probabilities.slice(first + unit.from, first + unit.to)),
    }));
    // The attention of the last token often does not move on: let the last word run to the
    // segment's end rather than end where it starts.
    const final = timed.at(-1);
    if (final && final.end <= final.start) final.end = segment.end;
    segments.push({
      text,
      language,
      start: toFileTime(segment.start),
      end: toFileTime(segment.end),
      channel,
      words: groupWords(timed).map((w) => ({
        text: w.text,
        start: toFileTime(w.start),
        end: toFileTime(w.end),
        confidence: w.confidence,
      })),
    });
  }
  return { segments, consumed: split.consumed, textTokens };
}

/**
 * The closed segments among a window's tokens sampled so far, as text and times only (no word
 * timings): what the window is heard to say before its decode is done and checked.
 */
export function provisionalSegments(
  model: LoadedWhisper,
  sampled: readonly number[],
  audioSeconds: number,
  channel: number,
  toFileTime: (windowSeconds: number) => number,
): ProvisionalSegment[] {
  const split = splitSegments(sampled, model.vocab, audioSeconds, false);
  return split.segments
    .map((segment) => ({
      text: model.decodeText(segment.tokenIndices.map((i) => sampled[i]!)).trim(),
      start: toFileTime(segment.start),
      end: toFileTime(segment.end),
      channel,
    }))
    .filter((segment) => segment.text !== '');
}

function geometricMean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return Math.exp(values.reduce((s, v) => s + Math.log(Math.max(v, 1e-12)), 0) / values.length);
}

/**
 * Byte-level tokens can split one character across tokens; joins tokens until they decode to
 * whole characters. `from`/`to` index the segment's tokens ([from, to)).
 */
function unicodeUnits(
  model: LoadedWhisper,
  tokens: readonly number[],
): { text: string; from: number; to: number }[] {
  const units: { text: string; from: number; to: number }[] = [];
  let from = 0;
  for (let to = 1; to <= tokens.length; to++) {
    const text = model.decodeText(tokens.slice(from, to));
    if (!text.includes('\uFFFD') || to === tokens.length) {
      units.push({ text, from, to });
      from = to;
    }
  }
  return units;
}
