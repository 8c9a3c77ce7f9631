/**
 * Where sound starts after a pause: the places a word can start that the signal itself shows.
 * Forced decoding places words within a few tenths of a second with a small model; where the
 * speaker paused before a word, the pause's end is the word's start to the hundredth.
 */

/** Frames of the level envelope, in seconds. */
export const ONSET_FRAME_SECONDS = 0.01;

export interface OnsetSettings {
  /** A pause is at least this long (shorter dips are stops within a word). */
  minPauseSeconds: number;
  /**
   * Sound is louder than the pause floor by this share of the range from the floor (the 10th
   * percentile of the levels) to the speech level (the 95th).
   */
  threshold: number;
}

export const DEFAULT_ONSET_SETTINGS: OnsetSettings = { minPauseSeconds: 0.05, threshold: 0.35 };

/**
 * The times (seconds from the envelope's start) where sound starts after a pause, from levels
 * in dB of consecutive `ONSET_FRAME_SECONDS` frames. The start of the envelope counts as a
 * pause.
 */
export function soundOnsets(
  levelsDb: Float32Array,
  settings: OnsetSettings = DEFAULT_ONSET_SETTINGS,
): number[] {
  const line = soundLine(levelsDb, settings.threshold);
  if (line === null) return [];
  const pauseFrames = Math.max(1, Math.round(settings.minPauseSeconds / ONSET_FRAME_SECONDS));
  const onsets: number[] = [];
  let quiet = pauseFrames;
  for (let f = 0; f < levelsDb.length; f++) {
    if (levelsDb[f]! < line) {
      quiet++;
      continue;
    }
    if (quiet >= pauseFrames) onsets.push(f * ONSET_FRAME_SECONDS);
    quiet = 0;
  }
  return onsets;
}

/**
 * The level in dB above which a frame is sound: `threshold` of the range from the pause floor
 * (the 10th percentile of the levels) to the speech level (the 95th). Null when the range is
 * under 10 dB: no pause can be told from speech then (speech over music, steady noise).
 */
function soundLine(levelsDb: Float32Array, threshold: number): number | null {
  if (levelsDb.length === 0) return null;
  const sorted = Float32Array.from(levelsDb).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)]!;
  const speech = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
  if (speech - floor < 10) return null;
  return floor + threshold * (speech - floor);
}

/**
 * A word's end moved back to where its sound ends: forced decoding ends a word where the next
 * begins or where the model closed its segment, so the last word before a pause takes the
 * pause. A quiet tail of at least `minPauseSeconds` is cut off; a dip inside the word (a stop)
 * is kept, as is a word with no sound above the line at all (nothing tells where it ends). The
 * line is lower than for onsets (`END_THRESHOLD`), so that a soft ending (a fricative, a
 * fading vowel) stays in the word.
 */
export function soundEnds(
  levelsDb: Float32Array,
  settings: OnsetSettings = DEFAULT_ONSET_SETTINGS,
): (start: number, end: number) => number {
  const line = soundLine(levelsDb, END_THRESHOLD);
  if (line === null) return (_, end) => end;
  const pauseFrames = Math.max(1, Math.round(settings.minPauseSeconds / ONSET_FRAME_SECONDS));
  return (start, end) => {
    const first = Math.max(0, Math.floor(start / ONSET_FRAME_SECONDS + 1e-6));
    const last = Math.min(levelsDb.length, Math.ceil(end / ONSET_FRAME_SECONDS - 1e-6));
    let f = last - 1;
    while (f >= first && levelsDb[f]! < line) f--;
    if (f < first || last - 1 - f < pauseFrames) return end;
    return Math.max(start, Math.min(end, (f + 1) * ONSET_FRAME_SECONDS));
  };
}

/** Share of the floor-to-speech range above which a word's sound has not yet ended. */
const END_THRESHOLD = 0.2;

/**
 * Word starts moved to the onsets they stand for: a monotone matching of words to onsets (each
 * onset to one word at most, in order) that keeps the total distance least. A word farther than
 * `reach` seconds from every onset, or whose onset serves a word nearer to it, keeps its time
 * (`unmatchedCost`, what leaving a word unmatched costs in seconds, is the reach: a match
 * within reach is never worse than none). An onset inside a word
 * (a stop before a vowel) is simply left unused. Forced decoding places most words within a few
 * tenths of their onsets, so the nearest consistent matching is the true one. Where a second
 * time is known for a word (`otherStarts`: where recognition heard it), the nearer of the two
 * counts: a stretch that forced decoding put late by about the spacing of its words would
 * otherwise land one word over.
 */
export function snapToOnsets(
  starts: readonly number[],
  onsets: readonly number[],
  reach: number,
  unmatchedCost = reach,
  /** A second time for some words (recognition's), null for others: the nearer one counts. */
  otherStarts: readonly (number | null)[] = [],
): number[] {
  const n = starts.length;
  const m = onsets.length;
  const width = m + 1;
  const cost = new Float64Array((n + 1) * width).fill(Infinity);
  const move = new Uint8Array((n + 1) * width);
  for (let j = 0; j <= m; j++) cost[j] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      // 0: word i-1 left where it is; 1: onset j-1 unused; 2: word i-1 takes onset j-1.
      let best = cost[(i - 1) * width + j]! + unmatchedCost;
      let how = 0;
      if (j > 0) {
        const skip = cost[i * width + j - 1]!;
        if (skip < best) {
          best = skip;
          how = 1;
        }
        const other = otherStarts[i - 1];
        const distance = Math.min(
          Math.abs(starts[i - 1]! - onsets[j - 1]!),
          other === null || other === undefined ? Infinity : Math.abs(other - onsets[j - 1]!),
        );
        if (distance <= reach) {
          const take = cost[(i - 1) * width + j - 1]! + distance;
          if (take < best) {
            best = take;
            how = 2;
          }
        }
      }
      cost[i * width + j] = best;
      move[i * width + j] = how;
    }
  }
  const snapped = [...starts];
  let i = n;
  let j = m;
  while (i > 0) {
    const how = move[i * width + j];
    if (how === 2) snapped[i - 1] = onsets[j - 1]!;
    if (how === 1) j--;
    else if (how === 2) {
      i--;
      j--;
    } else i--;
  }
  return snapped;
}
