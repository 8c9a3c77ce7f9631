import { forEachStretch, isSixteenBit, pcmPeak, type Pcm } from './pcm';

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
