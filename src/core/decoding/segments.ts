import { SECONDS_PER_TIMESTAMP, type WhisperVocabulary } from './vocabulary';

/** A run of text tokens between two timestamp tokens, times relative to the decoded audio. */
export interface TokenSegment {
  start: number;
  end: number;
  /** Indices into the sampled sequence of the segment's text tokens. */
  tokenIndices: number[];
}

export interface SplitResult {
  segments: TokenSegment[];
  /**
   * Seconds of the decoded audio that the segments account for: the whole of it when the
   * decoder finished on its own, else up to the last closed segment (the rest is decoded again).
   */
  consumed: number;
}

/**
 * Cuts a sampled sequence (timestamps and text, without end-of-text) into segments, as
 * Whisper's seek rule does: a sequence that ends in a single timestamp, or has no timestamps,
 * consumed the whole audio; one that ends in a pair stopped at its last timestamp.
 */
export function splitSegments(
  sampled: readonly number[],
  vocab: WhisperVocabulary,
  audioSeconds: number,
  finished: boolean,
): SplitResult {
  const tsBegin = vocab.timestampBegin;
  const isTs = (t: number) => t >= tsBegin;
  const time = (t: number) => (t - tsBegin) * SECONDS_PER_TIMESTAMP;
  const segments: TokenSegment[] = [];
  let openAt: number | null = null;
  let text: number[] = [];
  for (let i = 0; i < sampled.length; i++) {
    const token = sampled[i]!;
    if (isTs(token)) {
      if (openAt === null || text.length === 0) {
        openAt = time(token);
      } else {
        segments.push({ start: openAt, end: Math.max(openAt, time(token)), tokenIndices: text });
        text = [];
        openAt = null;
      }
    } else if (token < vocab.endOfText) {
      text.push(i);
    }
  }
  if (text.length > 0) {
    // Text after the last timestamp with no closing one. When the decoder stopped on its own
    // it runs to the end of the audio; when it was cut off, it is dropped and decoded again.
    if (finished || segments.length === 0) {
      segments.push({ start: openAt ?? 0, end: audioSeconds, tokenIndices: text });
      return { segments, consumed: audioSeconds };
    }
    return { segments, consumed: segments.at(-1)!.end };
  }
  const lastTwo = sampled.slice(-2);
  const endsInPair = lastTwo.length === 2 && isTs(lastTwo[0]!) && isTs(lastTwo[1]!);
  if (endsInPair) {
    return { segments, consumed: Math.min(audioSeconds, time(lastTwo[1]!)) };
  }
  return { segments, consumed: audioSeconds };
}
