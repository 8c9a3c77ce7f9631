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
  const o = { ...DEFAULT_SPECTRAL_DENOISE, ...options };
  const n = o.frameLength;
  if (!Number.isInteger(Math.log2(n)) || n < 16) {
    throw new RangeError(`frameLength must be a power of two >= 16, not ${n}.`);
  }
  const hop = n / 2;
  const bins = n / 2 + 1;
  const frames = denoiseFrameCount(samples.length, n);
  // Frame f covers samples [f * hop - n, f * hop): every sample is covered by two frames, and
  // samples outside the signal are zeros.
  const length = samples.length;
  const at = (i: number) => (i >= 0 && i < length ? samples[i]! : 0);
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
  }
  const noise = new Float64Array(bins);
  for (const f of chosen) {
    analyse(f);
    for (let k = 0; k < bins; k++) noise[k]! += power[k]! / chosen.length;
  }
  for (let k = 0; k < bins; k++) noise[k] = Math.max(noise[k]!, 1e-12);

  const floor = 10 ** (o.floorDb / 20);
  const out = new Float32Array(length);
  const previous = new Float64Array(bins);
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
    const base = f * hop - n;
    for (let i = Math.max(0, -base); i < n && base + i < length; i++) {
      out[base + i]! += (re[i]! / n) * window[i]!;
    }
  }
  return out;
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
