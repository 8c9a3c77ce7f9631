import { alignmentMatrix, tokenStartFrames } from '../../../core/decoding/alignment';
import { argmax, logSoftmax } from '../../../core/decoding/probabilities';
import { SECONDS_PER_TIMESTAMP } from '../../../core/decoding/vocabulary';
import type { LoadedWhisper } from '../../ports';

/** One script word, timed within its window (seconds from the window's start). */
export interface ForcedWord {
  start: number;
  end: number;
  /** The geometric mean of the model's probabilities of the word's tokens, given the audio. */
  confidence: number;
}

export interface ForcedWindow {
  words: ForcedWord[];
  /** How many of the words lie in segments the model closed before the window's end. */
  settled: number;
}

/** A segment of the forced decode: its timestamps and the tokens between them. */
interface ForcedSegment {
  start: number;
  end: number;
  /** Indices into the flat token list [from, to). */
  from: number;
  to: number;
}

/**
 * Times given words in one window of audio by forced decoding. The recogniser decodes as it
 * would on its own, with one change: where it would choose a text token, it is given the next
 * token of the words. It still chooses every timestamp: where speech begins, where it closes a
 * segment between two words and opens the next, and where the last one ends, so the decode
 * stays the kind the model knows (segments of the length it makes). Within each segment the
 * alignment heads' attention while it reads each token, warped onto the segment's frames, gives
 * each token its start, as for recognised words. The text is never changed: the model only
 * says when each piece was said and how likely it found it.
 */
export async function forcedWindow(
  model: LoadedWhisper,
  audio: Float32Array,
  language: string,
  /**
   * Each word's tokens, a leading space included, in each way of writing it the model may be
   * given (as written first; see `caseVariants`).
   */
  wordTokens: readonly (readonly (readonly number[])[])[],
  signal?: AbortSignal,
  /**
   * Where recognition heard each word start, in seconds from the window's start (null where it
   * did not hear it). A segment the model opens before such a word opens within `reach` of
   * that time: on its own, the model may open it at a later pause, and every word of the
   * segment is then pressed into the wrong speech.
   */
  heardStarts: readonly (number | null)[] = [],
  reach = 1,
): Promise<ForcedWindow> {
  const { vocab } = model;
  const ts = vocab.timestampBegin;
  const languageToken = vocab.languages.get(language) ?? vocab.languages.get('en');
  if (languageToken === undefined)
    throw new Error(`The model has no language token for "${language}".`);
  const lastIndex = Math.max(1, Math.floor(audio.length / 16_000 / SECONDS_PER_TIMESTAMP + 1e-6));
  const encoded = await model.encode(await model.features(audio));
  signal?.throwIfAborted();

  const prompt = [vocab.startOfTranscript, languageToken, vocab.transcribe];
  let step = await model.step(encoded, prompt, null);
  const attention: Float32Array[][] = [];
  const probabilities: number[] = [];
  const segments: ForcedSegment[] = [];
  const wordStarts: number[] = [];
  /** The tokens each word was given: the way of writing it the model found likeliest. */
  const given: (readonly number[])[] = [];
  try {
    const near = (w: number, from: number, to: number): [number, number] => {
      const heard = heardStarts[w];
      if (heard === null || heard === undefined) return [from, to];
      const low = Math.max(from, Math.floor((heard - reach) / SECONDS_PER_TIMESTAMP));
      const high = Math.min(to, Math.ceil((heard + reach) / SECONDS_PER_TIMESTAMP));
      return low <= high ? [low, high] : [from, to];
    };
    const firstStart = bestTimestamp(
      step.lastLogits,
      ts,
      ...near(0, 0, Math.min(lastIndex - 1, model.maxInitialTimestampIndex)),
    );
    let open: ForcedSegment = { start: firstStart, end: lastIndex, from: 0, to: 0 };
    step = await model.step(encoded, [ts + firstStart], step.past);
    let index = 0;
    for (const [w, ways] of wordTokens.entries()) {
      let pieces = likeliestWay(step.lastLogits, ways);
      // Between words the model may close its segment and open another, as it would when
      // decoding freely: when its timestamps together are likelier than the given token.
      const first = pieces[0];
      const closing =
        w > 0 &&
        first !== undefined &&
        open.start + 1 < lastIndex &&
        prefersTimestamp(step.lastLogits, ts, first, open.start + 1, lastIndex);
      if (closing) {
        const heard = heardStarts[w];
        const endLimit =
          heard === null || heard === undefined
            ? lastIndex
            : Math.max(
                open.start + 1,
                Math.min(lastIndex, Math.round(heard / SECONDS_PER_TIMESTAMP)),
              );
        const end = bestTimestamp(step.lastLogits, ts, open.start + 1, endLimit);
        attention.push(step.alignmentRows);
        segments.push({ ...open, end, to: index });
        step = await model.step(encoded, [ts + end], step.past);
        const start = bestTimestamp(step.lastLogits, ts, ...near(w, end, lastIndex));
        step = await model.step(encoded, [ts + start], step.past);
        open = { start, end: lastIndex, from: index, to: index };
        pieces = likeliestWay(step.lastLogits, ways);
      }
      given.push(pieces);
      wordStarts.push(index);
      for (const token of pieces) {
        signal?.throwIfAborted();
        probabilities.push(Math.exp(logSoftmax(step.lastLogits)[token]!));
        attention.push(step.alignmentRows);
        step = await model.step(encoded, [token], step.past);
        index++;
      }
    }
    const end = bestTimestamp(step.lastLogits, ts, open.start + 1, lastIndex);
    attention.push(step.alignmentRows);
    segments.push({ ...open, end, to: index });
  } finally {
    model.releasePast(step.past);
  }

  // Each token's start, in frames of the window; each segment also gives the frame where its
  // last token ends (its closing timestamp).
  const tokenStart = new Float64Array(probabilities.length);
  const segmentEnd = new Float64Array(probabilities.length);
  let row = 0;
  for (const segment of segments) {
    const count = segment.to - segment.from;
    const rows = attention.slice(row, row + count + 1);
    row += count + 1;
    const startFrame = segment.start;
    const endFrame = Math.max(startFrame + 1, segment.end);
    const heads = rows[0]?.length ?? 0;
    const weights = Array.from({ length: heads }, (_, h) =>
      rows.map((r) => r[h]!.subarray(startFrame, endFrame)),
    );
    const starts =
      heads > 0 && count > 0
        ? tokenStartFrames(alignmentMatrix(weights, endFrame - startFrame, model.medianFilterWidth))
        : [];
    for (let k = 0; k < count; k++) {
      tokenStart[segment.from + k] = Math.min(endFrame, startFrame + (starts[k] ?? 0));
      segmentEnd[segment.from + k] = endFrame;
    }
  }

  const words: ForcedWord[] = given.map((pieces, w) => {
    const from = wordStarts[w]!;
    const to = from + pieces.length;
    const sameSegment = to < tokenStart.length && segmentEnd[to] === segmentEnd[from];
    // A word ends where the next one starts, or, last in its segment, where the segment ends.
    const endFrame = sameSegment ? tokenStart[to]! : segmentEnd[from]!;
    // Punctuation is how the text was written, not something heard: a word's confidence is
    // that of its spoken pieces (all of them for a word of punctuation only).
    const spoken = pieces
      .map((token, k) => ({ token, p: probabilities[from + k]! }))
      .filter(({ token }) => /[\p{L}\p{N}]/u.test(model.tokenText(token)));
    const counted = spoken.length > 0 ? spoken.map((t) => t.p) : probabilities.slice(from, to);
    const logSum = counted.reduce((s, p) => s + Math.log(Math.max(p, 1e-12)), 0);
    return {
      start: tokenStart[from]! * SECONDS_PER_TIMESTAMP,
      end: Math.max(tokenStart[from]!, endFrame) * SECONDS_PER_TIMESTAMP,
      confidence: counted.length > 0 ? Math.exp(logSum / counted.length) : 0,
    };
  });
  // Words of a last segment that runs to the window's end may belong to speech cut off there.
  const last = segments.at(-1)!;
  const cut = segments.length > 1 && last.end >= lastIndex - 1;
  const settledTokens = cut ? last.from : probabilities.length;
  const settled = wordStarts.filter((start) => start < settledTokens).length;
  return { words, settled };
}

/**
 * Of the ways a word may be written, the one whose first token the model finds likeliest here.
 * Case is how a text was written, not something heard: a model that would write "the" where
 * the script has "The" (the first word of a sentence the model placed mid-segment, or a model
 * that writes in lower case) would otherwise find the word itself unlikely, giving it a
 * confidence near 0 and a time pulled off its speech.
 */
function likeliestWay(
  logits: Float32Array,
  ways: readonly (readonly number[])[],
): readonly number[] {
  let best = ways[0]!;
  for (const way of ways) {
    if (way.length > 0 && logits[way[0]!]! > logits[best[0] ?? 0]!) best = way;
  }
  return best;
}

/**
 * Whether the model would rather place a timestamp than the given token: its timestamps in
 * [from, to] together outweigh that token (Whisper's rule for choosing a timestamp).
 */
function prefersTimestamp(
  logits: Float32Array,
  timestampBegin: number,
  token: number,
  from: number,
  to: number,
): boolean {
  const range = logits.subarray(timestampBegin + from, timestampBegin + to + 1);
  let max = -Infinity;
  for (const value of range) max = Math.max(max, value);
  if (max === -Infinity) return false;
  let sum = 0;
  for (const value of range) sum += Math.exp(value - max);
  return max + Math.log(sum) > logits[token]!;
}

/** The likeliest timestamp index in [from, to] (Whisper's timestamps are 0.02 s apart). */
function bestTimestamp(
  logits: Float32Array,
  timestampBegin: number,
  from: number,
  to: number,
): number {
  const upper = Math.max(from, to);
  return from + argmax(logits.subarray(timestampBegin + from, timestampBegin + upper + 1));
}
