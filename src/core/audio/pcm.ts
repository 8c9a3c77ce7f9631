/**
 * The samples of one channel: floats in -1..1, the compact 16-bit form that long files are
 * kept in (half the memory: two hours of 16 kHz stereo hold 461 MB instead of 922 MB), or
 * 16-bit samples kept outside the heap (a file) and read back a stretch at a time, so that
 * memory does not grow with the length. Readers take a stretch at a time, never the whole
 * channel.
 */
export type Pcm = PcmArray | StoredPcm;

/** Samples in an array of their own: floats, or 16-bit. */
export type PcmArray = Float32Array | Int16Array;

/** 16-bit samples kept elsewhere (a file), read back by stretches. */
export interface StoredPcm {
  readonly length: number;
  /** A copy of samples `from`..`to` (within 0..length). */
  read(from: number, to: number): Int16Array;
}

const SCALE = 32768;

/** Samples that are not in an array of their own. */
export function isStoredPcm(samples: Pcm): samples is StoredPcm {
  return !(samples instanceof Float32Array) && !(samples instanceof Int16Array);
}

/** Whether samples are 16-bit (in an array or stored), measured against 32768. */
export function isSixteenBit(samples: Pcm): boolean {
  return !(samples instanceof Float32Array);
}

function clamp(samples: Pcm, from: number, to: number): [number, number] {
  const start = Math.max(0, Math.min(from, samples.length));
  return [start, Math.max(start, Math.min(to, samples.length))];
}

/**
 * Samples `from`..`to` in their own form: a view of an array (no copy), or a 16-bit copy read
 * back from storage.
 */
export function pcmSlice(samples: Pcm, from = 0, to = samples.length): PcmArray {
  const [start, end] = clamp(samples, from, to);
  if (isStoredPcm(samples)) return samples.read(start, end);
  return samples.subarray(start, end);
}

/** The first `length` samples, without copying. */
export function pcmPrefix(samples: Pcm, length: number): Pcm {
  if (!isStoredPcm(samples)) return samples.subarray(0, length);
  const end = Math.max(0, Math.min(length, samples.length));
  return { length: end, read: (from, to) => samples.read(from, Math.min(to, end)) };
}

/** Samples `from`..`to` as floats: a view of a float channel, a converted copy of a 16-bit one. */
export function pcmFloats(samples: Pcm, from = 0, to = samples.length): Float32Array {
  const slice = pcmSlice(samples, from, to);
  if (slice instanceof Float32Array) return slice;
  const out = new Float32Array(slice.length);
  for (let i = 0; i < slice.length; i++) out[i] = slice[i]! / SCALE;
  return out;
}

/**
 * Calls `visit` with consecutive stretches of about `size` samples (in their own form, see
 * `pcmSlice`) and where each starts, so that a whole channel is read without holding it twice.
 * Stretches are whole multiples of `multiple` samples but for the last.
 */
export function forEachStretch(
  samples: Pcm,
  visit: (stretch: PcmArray, at: number) => void,
  multiple = 1,
  size = 1 << 18,
): void {
  const step = Math.max(multiple, Math.floor(size / multiple) * multiple);
  for (let at = 0; at < samples.length; at += step) {
    visit(pcmSlice(samples, at, at + step), at);
  }
}

/** Writes `floats` into a 16-bit channel at `at`, rounded and clipped to full scale. */
export function storeFloats(target: Int16Array, at: number, floats: ArrayLike<number>): void {
  for (let i = 0; i < floats.length; i++) {
    const s = Math.round(floats[i]! * SCALE);
    target[at + i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
}

/**
 * Writes `frames` frames of one channel of interleaved floats (from frame `fromFrame`) into a
 * 16-bit channel at `at`, rounded and clipped like `storeFloats`: no per-channel float copy.
 */
export function storeInterleaved(
  target: Int16Array,
  at: number,
  interleaved: Float32Array,
  channel: number,
  count: number,
  fromFrame: number,
  frames: number,
): void {
  for (let f = 0; f < frames; f++) {
    const s = Math.round(interleaved[(fromFrame + f) * count + channel]! * SCALE);
    target[at + f] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
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
  forEachStretch(samples, (stretch) => {
    for (let i = 0; i < stretch.length; i++) peak = Math.max(peak, Math.abs(stretch[i]!));
  });
  return isSixteenBit(samples) ? peak / SCALE : peak;
}
