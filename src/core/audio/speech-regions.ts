import type { Seconds } from '../units';

/** A stretch of time in seconds from the start of the file. */
export interface TimeSpan {
  start: Seconds;
  end: Seconds;
}

/** How speech probabilities of consecutive fixed windows become regions of speech. */
export interface SpeechRegionOptions {
  /** Length of one probability window (Silero at 16 kHz: 512 samples = 0.032 s). */
  windowSeconds: Seconds;
  /** A window at or above this probability starts or continues speech. */
  threshold: number;
  /** Speech continues until the probability falls below this (hysteresis). */
  negativeThreshold: number;
  /** Regions shorter than this are dropped (clicks, coughs). */
  minSpeechSeconds: Seconds;
  /** Pauses shorter than this do not end a region. */
  minSilenceSeconds: Seconds;
  /** Added before and after each region (and clipped to the file), so word edges are kept. */
  padSeconds: Seconds;
}

/**
 * Chosen on two far-field meeting excerpts with reference speaker turns (AMI dev00 and dev01,
 * about -41 dBFS; `npm run bench:vad`), with each VAD stream's level brought up first
 * (`core/audio/level-normalisation.ts`): Silero's default 0.5 found 70% and 83% of their
 * labelled speech; a lower onset with hysteresis, pauses under 0.8 s kept inside speech (a
 * talker's pauses between words are labelled speech) and 0.1 s of padding find 95.1% and 97.7%
 * with false alarms of 1.7% and 8.0% of the speech.
 */
export const DEFAULT_SPEECH_REGION_OPTIONS: SpeechRegionOptions = {
  windowSeconds: 512 / 16_000,
  threshold: 0.2,
  negativeThreshold: 0.1,
  minSpeechSeconds: 0.25,
  minSilenceSeconds: 0.8,
  padSeconds: 0.1,
};

/**
 * Regions of speech from per-window speech probabilities: a region opens when a window
 * reaches `threshold` and closes once the probability has stayed under `negativeThreshold`
 * for `minSilenceSeconds`. `duration` bounds the padded regions (the file's length).
 */
export function speechRegions(
  probabilities: ArrayLike<number>,
  duration: Seconds,
  options: Partial<SpeechRegionOptions> = {},
): TimeSpan[] {
  const o = { ...DEFAULT_SPEECH_REGION_OPTIONS, ...options };
  if (!(o.windowSeconds > 0)) throw new RangeError('windowSeconds must be positive.');
  if (o.negativeThreshold > o.threshold) {
    throw new RangeError('negativeThreshold must not exceed threshold.');
  }
  const raw: TimeSpan[] = [];
  let start: number | null = null;
  let silentSince: number | null = null;
  for (let w = 0; w < probabilities.length; w++) {
    const p = probabilities[w]!;
    const t = w * o.windowSeconds;
    if (start === null) {
      if (p >= o.threshold) start = t;
      continue;
    }
    if (p >= o.negativeThreshold) {
      silentSince = null;
      continue;
    }
    silentSince ??= t;
    if (t + o.windowSeconds - silentSince >= o.minSilenceSeconds) {
      raw.push({ start, end: silentSince });
      start = null;
      silentSince = null;
    }
  }
  if (start !== null) {
    raw.push({ start, end: silentSince ?? probabilities.length * o.windowSeconds });
  }
  const padded: TimeSpan[] = [];
  for (const r of raw) {
    if (r.end - r.start < o.minSpeechSeconds) continue;
    const span = {
      start: Math.max(0, r.start - o.padSeconds),
      end: Math.min(duration, r.end + o.padSeconds),
    };
    const last = padded[padded.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else if (span.end > span.start) padded.push(span);
  }
  return padded;
}

/** Total seconds covered by non-overlapping spans. */
export function spanDuration(spans: readonly TimeSpan[]): Seconds {
  return spans.reduce((sum, s) => sum + Math.max(0, s.end - s.start), 0);
}

/**
 * Seconds before the end of the scored windows within which a region may still change: a
 * region open at the end, or one closed just before it, can grow or merge with what comes.
 */
export const UNSETTLED_SECONDS: Seconds = 1;

/**
 * The regions of a channel scored up to `scoredSeconds` that later windows cannot change: the
 * leading regions of `speechRegions` that end at least `UNSETTLED_SECONDS` before it (all of
 * them when `complete`). They are always a prefix of the regions of the whole channel.
 */
export function settledSpeechRegions(
  probabilities: ArrayLike<number>,
  duration: Seconds,
  complete: boolean,
  options: Partial<SpeechRegionOptions> = {},
): TimeSpan[] {
  const regions = speechRegions(probabilities, duration, options);
  if (complete) return regions;
  const windowSeconds = options.windowSeconds ?? DEFAULT_SPEECH_REGION_OPTIONS.windowSeconds;
  const until = probabilities.length * windowSeconds - UNSETTLED_SECONDS;
  const kept = regions.findIndex((r) => r.end > until);
  return kept === -1 ? regions : regions.slice(0, kept);
}
