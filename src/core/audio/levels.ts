import { forEachStretch, isSixteenBit, pcmPeak, type Pcm, type PcmArray } from './pcm';

/**
 * Signal levels in decibels relative to full scale (dBFS), for float samples in -1..1.
 * Digital silence has no level; it is reported as `SILENCE_DB`.
 */
export const SILENCE_DB = -120;

function toDb(meanSquare: number): number {
  return meanSquare > 0 ? Math.max(SILENCE_DB, 10 * Math.log10(meanSquare)) : SILENCE_DB;
}

/** Root-mean-square level of a whole signal, in dBFS. */
export function rmsLevelDb(samples: Float32Array): number {
  if (samples.length === 0) return SILENCE_DB;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    sum += s * s;
  }
  return toDb(sum / samples.length);
}

/** Highest absolute sample, in dBFS. */
export function peakLevelDb(samples: Pcm): number {
  return peakDb(pcmPeak(samples));
}

/** A peak (the highest absolute sample, in -1..1 units) in dBFS. */
export function peakDb(peak: number): number {
  return peak > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(peak)) : SILENCE_DB;
}

/**
 * The level of each consecutive frame of `frameLength` samples, in dBFS (a last partial frame
 * is dropped). This is the envelope that channel comparison works on.
 */
export function frameLevelsDb(samples: Pcm, frameLength: number): Float32Array {
  if (!Number.isInteger(frameLength) || frameLength <= 0) {
    throw new RangeError(`frameLength must be a positive integer, not ${frameLength}.`);
  }
  const frames = Math.floor(samples.length / frameLength);
  const levels = new Float32Array(frames);
  // 16-bit samples are measured against their own full scale.
  const fullScale = isSixteenBit(samples) ? 32768 * 32768 : 1;
  forEachStretch(
    samples,
    (stretch, at) => {
      const first = at / frameLength;
      const count = Math.min(frames - first, Math.floor(stretch.length / frameLength));
      for (let f = 0; f < count; f++) {
        let sum = 0;
        const start = f * frameLength;
        for (let i = start; i < start + frameLength; i++) {
          const s = stretch[i]!;
          sum += s * s;
        }
        levels[first + f] = toDb(sum / frameLength / fullScale);
      }
    },
    frameLength,
  );
  return levels;
}

/**
 * `frameLevelsDb` over samples that arrive a stretch at a time, with the same values: a frame
 * that spans two stretches is summed in the same order as if they were one. A long channel is
 * then measured once, as it grows, instead of being read back whole for its envelope.
 */
export class FrameLevelMeter {
  private values = new Float32Array(1024);
  private count = 0;
  /** The sum of squares of the frame under way, and how many of its samples it holds. */
  private sum = 0;
  private filled = 0;

  constructor(private readonly frameLength: number) {
    if (!Number.isInteger(frameLength) || frameLength <= 0) {
      throw new RangeError(`frameLength must be a positive integer, not ${frameLength}.`);
    }
  }

  /** Measures the next samples of the signal. */
  push(stretch: PcmArray): void {
    const state = { sum: this.sum, filled: this.filled };
    this.measure(stretch, state, (level) => {
      if (this.count === this.values.length) {
        const grown = new Float32Array(this.values.length * 2);
        grown.set(this.values);
        this.values = grown;
      }
      this.values[this.count++] = level;
    });
    this.sum = state.sum;
    this.filled = state.filled;
  }

  /** The levels of the whole frames measured so far (a view, valid until the next push). */
  levels(): Float32Array {
    return this.values.subarray(0, this.count);
  }

  /** The levels the meter would give had `tail` been pushed too; the meter is left as it is. */
  levelsWith(tail: PcmArray): Float32Array {
    const extra: number[] = [];
    this.measure(tail, { sum: this.sum, filled: this.filled }, (level) => extra.push(level));
    const out = new Float32Array(this.count + extra.length);
    out.set(this.levels());
    out.set(extra, this.count);
    return out;
  }

  private measure(
    stretch: PcmArray,
    state: { sum: number; filled: number },
    emit: (level: number) => void,
  ): void {
    // 16-bit samples are measured against their own full scale, as `frameLevelsDb` does.
    const fullScale = stretch instanceof Float32Array ? 1 : 32768 * 32768;
    let { sum, filled } = state;
    for (let i = 0; i < stretch.length; i++) {
      const s = stretch[i]!;
      sum += s * s;
      if (++filled === this.frameLength) {
        emit(toDb(sum / this.frameLength / fullScale));
        sum = 0;
        filled = 0;
      }
    }
    state.sum = sum;
    state.filled = filled;
  }
}
