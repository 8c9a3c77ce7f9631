import type { Seconds } from '../units';
import type { TimeSpan } from './speech-regions';

/**
 * Stretches of a channel that stand out from their own background by level alone. Silero VAD
 * scores speech under a music bed near zero (a narrated 12-s video: never above 0.12), so what
 * it rejects cannot be thrown away on its word alone: loud stretches go to the recogniser too,
 * which judges them, and a channel with such stretches is not billed as silent. The background
 * is measured locally (the quieter frames within a few seconds), so a steady hiss or hum is
 * never loud however strong, while music, speech and knocks are.
 */
export interface LoudnessOptions {
  /** Length of one level frame (the VAD window: 512 samples at 16 kHz). */
  frameSeconds: Seconds;
  /** The background at a frame: this percentile of the levels within `floorSpanSeconds`. */
  floorPercentile: number;
  /** Seconds either side of a frame that its background is measured over. */
  floorSpanSeconds: Seconds;
  /** A frame this many dB above its background is loud. */
  aboveFloorDb: number;
  /** Nothing below this level is loud (dBFS): digital silence and hum. */
  quietDb: number;
  /** Loud frames closer than this join one stretch. */
  joinSeconds: Seconds;
  /** A stretch with less loud time than this is dropped (a click, a breath, a noise spike). */
  minLoudSeconds: Seconds;
  /** Added before and after each stretch. */
  padSeconds: Seconds;
}

/**
 * Chosen on the speech-under-music development set (`npm run eval:music -- --set dev`):
 * stationary pink noise has 32-ms levels within a few dB of its own, isolated, and music beds
 * pass 6 dB several times a second.
 */
export const DEFAULT_LOUDNESS: LoudnessOptions = {
  frameSeconds: 512 / 16_000,
  floorPercentile: 0.1,
  floorSpanSeconds: 4,
  aboveFloorDb: 6,
  quietDb: -60,
  joinSeconds: 0.5,
  minLoudSeconds: 0.25,
  padSeconds: 0.1,
};

/**
 * Seconds before the end of the frames measured within which loud stretches may still change
 * as more audio comes (the background of a frame reaches this far ahead, and a stretch open
 * at the end can grow).
 */
export function unsettledLoudSeconds(options: LoudnessOptions = DEFAULT_LOUDNESS): Seconds {
  return options.floorSpanSeconds + options.joinSeconds + options.padSeconds + 1;
}

/** The background level of each frame (dBFS), measured over blocks of about a second. */
function backgroundLevels(levels: ArrayLike<number>, o: LoudnessOptions): Float32Array {
  const floors = new Float32Array(levels.length);
  const block = Math.max(1, Math.round(1 / o.frameSeconds));
  const span = Math.round(o.floorSpanSeconds / o.frameSeconds);
  const values: number[] = [];
  for (let from = 0; from < levels.length; from += block) {
    values.length = 0;
    const centre = from + (block >> 1);
    for (let i = Math.max(0, centre - span); i < Math.min(levels.length, centre + span); i++) {
      values.push(levels[i]!);
    }
    values.sort((a, b) => a - b);
    const floor = values[Math.floor(values.length * o.floorPercentile)] ?? 0;
    floors.fill(floor, from, Math.min(levels.length, from + block));
  }
  return floors;
}

/** Loud stretches from per-frame levels in dBFS (`frameLevelsDb`); `duration` bounds them. */
export function loudRegions(
  levels: ArrayLike<number>,
  duration: Seconds,
  options: Partial<LoudnessOptions> = {},
): TimeSpan[] {
  const o = { ...DEFAULT_LOUDNESS, ...options };
  if (!(o.frameSeconds > 0)) throw new RangeError('frameSeconds must be positive.');
  const floors = backgroundLevels(levels, o);
  const join = Math.round(o.joinSeconds / o.frameSeconds);
  const raw: { from: number; to: number; loud: number }[] = [];
  for (let f = 0; f < levels.length; f++) {
    const level = levels[f]!;
    if (level < o.quietDb || level < floors[f]! + o.aboveFloorDb) continue;
    const last = raw.at(-1);
    if (last && f - last.to <= join) {
      last.to = f + 1;
      last.loud++;
    } else raw.push({ from: f, to: f + 1, loud: 1 });
  }
  const out: TimeSpan[] = [];
  for (const r of raw) {
    if (r.loud * o.frameSeconds < o.minLoudSeconds) continue;
    const span = {
      start: Math.max(0, r.from * o.frameSeconds - o.padSeconds),
      end: Math.min(duration, r.to * o.frameSeconds + o.padSeconds),
    };
    const last = out.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else if (span.end > span.start) out.push(span);
  }
  return out;
}
