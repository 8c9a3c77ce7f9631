/**
 * A speech denoiser: short-time spectral Wiener filtering with a decision-directed estimate of
 * the speech-to-noise ratio (Ephraim and Malah's rule), the noise spectrum measured where there
 * is no speech. Frames of 32 ms at 16 kHz with half overlap and a square-root Hann window on
 * both sides, so that with no noise the output is the input.
 */
export interface SpectralDenoiseOptions {
  /** Frame length in samples, a power of two (512 = 32 ms at 16 kHz). */
  frameLength: number;
  /** Per frame: true where the frame holds no speech (from VAD). Optional. */
  noiseFrames?: readonly boolean[];
  /** Without enough noise frames, this share of the quietest frames is taken as noise. */
  quietFraction: number;
  /** Smoothing of the a-priori SNR across frames (decision-directed weight). */
  smoothing: number;
  /** The least gain, in dB: noise is lowered by at most this much (avoids musical noise). */
  floorDb: number;
}

export const DEFAULT_SPECTRAL_DENOISE: SpectralDenoiseOptions = {
  frameLength: 512,
  quietFraction: 0.15,
  smoothing: 0.98,
  floorDb: -18,
};

/** In-place iterative radix-2 FFT (inverse when `inverse`, unscaled). */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / size;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < n; start += size) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < size / 2; k++) {
        const a = start + k;
        const b = a + size / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/** Number of frames `spectralDenoise` cuts a signal of `length` samples into (frame f covers
 * samples f * hop - frameLength up to f * hop, hop = frameLength / 2). */
export function denoiseFrameCount(
  length: number,
  frameLength = DEFAULT_SPECTRAL_DENOISE.frameLength,
): number {
  const hop = frameLength / 2;
  return Math.ceil((length + frameLength) / hop);
}

/** Denoises a mono signal; the result has the same length and timing. */
export function spectralDenoise(
  samples: Float32Array,
  options: Partial<SpectralDenoiseOptions> = {},
): Float32Array {
  const out = new Float32Array(samples.length);
  denoiseStretches(
    { length: samples.length, floats: (from, to) => samples.subarray(from, to), inOrder: false },
    (at, stretch) => out.set(stretch, at),
    options,
  );
  return out;
}

/** A mono signal read a stretch at a time (a long channel kept outside memory). */
export interface DenoiseSource {
  readonly length: number;
  /** Samples `from`..`to` (within 0..length) as floats. */
  floats(from: number, to: number): Float32Array;
  /**
   * True where reading out of order is dear (a file): the noise frames are then measured in
   * time order rather than the fallback's order of loudness, which sums the same spectra in
   * another order (the last bits of the average may differ).
   */
  inOrder: boolean;
}

/** Samples read per stretch while going through the signal in order. */
const STRETCH = 1 << 16;

/**
 * `spectralDenoise` on a signal read a stretch at a time, its output handed to `write` in time
 * order (each sample once, final; the stretch is reused after the call), so that neither the
 * signal nor its output is held whole: the same filter, the same output.
 */
export function denoiseStretches(
  source: DenoiseSource,
  write: (at: number, stretch: Float32Array) => void,
  options: Partial<SpectralDenoiseOptions> = {},
): void {
  const o = { ...DEFAULT_SPECTRAL_DENOISE, ...options };
  const n = o.frameLength;
  if (!Number.isInteger(Math.log2(n)) || n < 16) {
    throw new RangeError(`frameLength must be a power of two >= 16, not ${n}.`);
  }
  const hop = n / 2;
  const bins = n / 2 + 1;
  const length = source.length;
  const frames = denoiseFrameCount(length, n);
  // Frame f covers samples [f * hop - n, f * hop): every sample is covered by two frames, and
  // samples outside the signal are zeros. Reading goes through a stretch kept in hand.
  let held: Float32Array = new Float32Array(0);
  let heldFrom = 0;
  const at = (i: number) => {
    if (i < 0 || i >= length) return 0;
    if (i < heldFrom || i >= heldFrom + held.length) {
      heldFrom = i;
      held = source.floats(i, Math.min(length, i + Math.max(STRETCH, n)));
    }
    return held[i - heldFrom]!;
  };
  const window = new Float64Array(n).map((_, i) => Math.sin((Math.PI * (i + 0.5)) / n));

  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const power = new Float64Array(bins);
  /** Windowed spectrum of frame `f` into re/im and its power into `power`. */
  const analyse = (f: number) => {
    for (let i = 0; i < n; i++) {
      re[i] = at(f * hop - n + i) * window[i]!;
      im[i] = 0;
    }
    fft(re, im, false);
    for (let k = 0; k < bins; k++) power[k] = re[k]! ** 2 + im[k]! ** 2;
  };

  // Frame energies (time domain), to pick noise frames without keeping any spectrum.
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = 0; i < n; i++) e += (at(f * hop - n + i) * window[i]!) ** 2;
    energy[f] = e;
  }
  // The noise spectrum: frames without speech, or else the quietest (but not digitally silent).
  let chosen: number[] = [];
  if (o.noiseFrames) {
    chosen = o.noiseFrames.flatMap((isNoise, f) =>
      isNoise && f < frames && energy[f]! > 0 ? [f] : [],
    );
  }
  if (chosen.length < 8) {
    const audible = [...energy.keys()]
      .filter((f) => energy[f]! > 0)
      .sort((a, b) => energy[a]! - energy[b]!);
    chosen = audible.slice(0, Math.max(1, Math.floor(audible.length * o.quietFraction)));
    if (source.inOrder) chosen.sort((a, b) => a - b);
  }
  const noise = new Float64Array(bins);
  for (const f of chosen) {
    analyse(f);
    for (let k = 0; k < bins; k++) noise[k]! += power[k]! / chosen.length;
  }
  for (let k = 0; k < bins; k++) noise[k] = Math.max(noise[k]!, 1e-12);

  const floor = 10 ** (o.floorDb / 20);
  const previous = new Float64Array(bins);
  // The second half of the last frame's output, which the next frame's first half completes
  // (float32, as the output is: the sum is rounded as adding into the output array would be).
  const tail = new Float32Array(hop);
  const out = new Float32Array(STRETCH);
  let outFrom = 0;
  let outLength = 0;
  const emit = (from: number, values: Float32Array) => {
    let start = Math.max(0, -from);
    const end = Math.min(values.length, length - from);
    while (start < end) {
      if (outLength === out.length) {
        write(outFrom, out);
        outFrom += outLength;
        outLength = 0;
      }
      const take = Math.min(end - start, out.length - outLength);
      out.set(values.subarray(start, start + take), outLength);
      outLength += take;
      start += take;
    }
  };
  const done = new Float32Array(hop);
  for (let f = 0; f < frames; f++) {
    analyse(f);
    for (let k = 0; k < bins; k++) {
      const posterior = power[k]! / noise[k]!;
      const prior =
        o.smoothing * (previous[k]! / noise[k]!) + (1 - o.smoothing) * Math.max(posterior - 1, 0);
      const gain = Math.max(floor, prior / (1 + prior));
      previous[k] = gain * gain * power[k]!;
      re[k] = re[k]! * gain;
      im[k] = im[k]! * gain;
      if (k > 0 && k < n / 2) {
        re[n - k] = re[k]!;
        im[n - k] = -im[k]!;
      }
    }
    fft(re, im, true);
    // Samples base..base + hop are final with this frame; the rest wait for the next one.
    const base = f * hop - n;
    for (let i = 0; i < hop; i++) {
      // Each stored as float32, as adding into a float32 output array would round it.
      done[i] = tail[i]! + (re[i]! / n) * window[i]!;
      tail[i] = (re[hop + i]! / n) * window[hop + i]!;
    }
    emit(base, done);
  }
  if (outLength > 0) write(outFrom, out.subarray(0, outLength));
}

/**
 * Which frames of `spectralDenoise` hold no speech: those that overlap no region (regions in
 * seconds), for measuring the noise where only noise is.
 */
export function noiseFramesOutside(
  regions: readonly { start: number; end: number }[],
  length: number,
  sampleRate: number,
  frameLength = DEFAULT_SPECTRAL_DENOISE.frameLength,
): boolean[] {
  const hop = frameLength / 2;
  const frames = denoiseFrameCount(length, frameLength);
  const noise = new Array<boolean>(frames).fill(true);
  for (const r of regions) {
    const first = Math.max(0, Math.floor((r.start * sampleRate) / hop));
    const last = Math.min(frames - 1, Math.ceil((r.end * sampleRate + frameLength) / hop));
    for (let f = first; f <= last; f++) noise[f] = false;
  }
  return noise;
}
