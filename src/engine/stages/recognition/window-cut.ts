import type { SpeechStream } from '../../../core/decoding/speech-streams';

/** Where a window decoded in a batch ends, and whether it is decoded whole. */
export interface WindowCut {
  /** Seconds of the window from its start. */
  seconds: number;
  /**
   * True where the window ends in a pause or at its stream's end: its segments account for
   * all of it, and the next window starts after it before it is decoded. False where speech
   * runs on through the window: it ends its batch, and the next window starts where its
   * segments end (Whisper's seek rule), once it is decoded.
   */
  whole: boolean;
}

/**
 * Cuts a window of a stream (`from` seconds into it, `seconds` of audio, at most
 * `windowSeconds`) where windows decoded together can start without knowing where the one
 * before ends: in the middle of the last long pause inside it (a stream's pieces after the
 * first each begin with a pause shortened to `keptPause` seconds; `speech-streams.ts`). A
 * window shorter than the model's is the end of its stream and whole as it is.
 */
export function windowCut(
  stream: SpeechStream,
  from: number,
  seconds: number,
  windowSeconds: number,
  keptPause: number,
): WindowCut {
  if (seconds < windowSeconds) return { seconds, whole: true };
  const end = from + seconds;
  const cut = lastPause(stream, keptPause, (start, at) => start > from && at < end);
  return cut === null ? { seconds, whole: false } : { seconds: cut - from, whole: true };
}

/**
 * Where a channel's first window ends when it is cut short so that its words come early
 * (`RecognitionSettings.firstWindowSeconds`): in the middle of the last long pause whose middle
 * lies between `minSeconds` and `maxSeconds` into the stream; null where there is none (the
 * window is then a whole model window, as any other). Only the stream's first `maxSeconds` are
 * read, so the cut is the same whether the stream is known that far or to its end.
 */
export function firstWindowCut(
  stream: SpeechStream,
  minSeconds: number,
  maxSeconds: number,
  keptPause: number,
): number | null {
  return lastPause(stream, keptPause, (_, at) => at >= minSeconds && at <= maxSeconds);
}

/**
 * The middle of the last long pause of a stream that `fits` (given where the pause starts and
 * its middle, in seconds into the stream): each of a stream's pieces after the first begins
 * with a pause shortened to `keptPause` seconds (`speech-streams.ts`). Null where none fits.
 */
function lastPause(
  stream: SpeechStream,
  keptPause: number,
  fits: (start: number, middle: number) => boolean,
): number | null {
  let cut: number | null = null;
  for (const piece of stream.pieces.slice(1)) {
    const middle = piece.streamStart + keptPause / 2;
    if (fits(piece.streamStart, middle)) cut = middle;
  }
  return cut;
}
