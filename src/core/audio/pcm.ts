/**
 * The samples of one channel: floats in -1..1, or the compact 16-bit form that long files are
 * kept in (half the memory: two hours of 16 kHz stereo hold 461 MB instead of 922 MB). Readers
 * take floats out a stretch at a time, never the whole channel.
 */
export type Pcm = Float32Array | Int16Array;

const SCALE = 32768;

/** Samples `from`..`to` as floats: a view of a float channel, a converted copy of a 16-bit one. */
export function pcmFloats(samples: Pcm, from = 0, to = samples.length): Float32Array {
  const start = Math.max(0, Math.min(from, samples.length));
  const end = Math.max(start, Math.min(to, samples.length));
  if (samples instanceof Float32Array) return samples.subarray(start, end);
  const out = new Float32Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = samples[i]! / SCALE;
  return out;
}

/** Writes `floats` into a 16-bit channel at `at`, rounded and clipped to full scale. */
export function storeFloats(target: Int16Array, at: number, floats: ArrayLike<number>): void {
  for (let i = 0; i < floats.length; i++) {
    const s = Math.round(floats[i]! * SCALE);
    target[at + i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
}

/** A whole channel in the compact form. */
export function compactPcm(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  storeFloats(out, 0, samples);
  return out;
}

/** Highest absolute sample, relative to full scale (0..1). */
export function pcmPeak(samples: Pcm): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]!));
  return samples instanceof Float32Array ? peak : peak / SCALE;
}
