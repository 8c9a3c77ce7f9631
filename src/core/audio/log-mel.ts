import { fft, fftPlan, type FftPlan } from './fft';

/**
 * Whisper's log-mel features, computed as transformers.js' WhisperFeatureExtractor computes
 * them (the window padded with zeros to its full length, frames centred with reflected edges,
 * a Hann window, power spectrum, mel filters, log10 floored 8 below the window's maximum and
 * scaled), with the filters and window taken from that extractor. It is faster: two frames
 * share one complex FFT, each filter sums only the bins where it is non-zero, and frames of
 * silence padding are not transformed at all.
 */
export interface LogMelSettings {
  /** Samples per frame (n_fft) and between frames (hop_length). */
  nFft: number;
  hop: number;
  /** Samples in one model window (n_samples); shorter audio is padded with zeros. */
  windowSamples: number;
  /** Frames in one model window (nb_max_frames). */
  frames: number;
  /** The analysis window, nFft values. */
  window: ArrayLike<number>;
  /** One row per mel band, nFft / 2 + 1 weights each. */
  melFilters: ArrayLike<ArrayLike<number>>;
}

interface Band {
  from: number;
  weights: Float32Array;
}

export interface LogMelPlan {
  settings: LogMelSettings;
  bands: Band[];
  window: Float64Array;
  fft: FftPlan;
}

export function logMelPlan(settings: LogMelSettings): LogMelPlan {
  const bins = Math.floor(settings.nFft / 2) + 1;
  const bands = Array.from(settings.melFilters, (row) => {
    if (row.length !== bins) throw new RangeError(`Mel filters must have ${bins} weights.`);
    let from = 0;
    while (from < bins && row[from] === 0) from++;
    let to = bins;
    while (to > from && row[to - 1] === 0) to--;
    // The extractor multiplies in float32: the weights are rounded as it rounds them.
    return { from, weights: Float32Array.from(Array.prototype.slice.call(row, from, to)) };
  });
  if (settings.window.length !== settings.nFft) throw new RangeError('Window length must be nFft.');
  return {
    settings,
    bands,
    window: Float64Array.from(settings.window),
    fft: fftPlan(settings.nFft),
  };
}

/** Reflects index i into 0..last, as numpy's 'reflect' padding does. */
function reflect(i: number, last: number): number {
  const period = 2 * last;
  let j = Math.abs(i) % (period || 1);
  if (j > last) j = period - j;
  return j;
}

/** Log-mel features of one window of audio: [mel band][frame], row-major. */
export function logMel(plan: LogMelPlan, audio: Float32Array): Float32Array {
  const { nFft, hop, windowSamples, frames } = plan.settings;
  const bins = Math.floor(nFft / 2) + 1;
  const half = Math.floor(nFft / 2);
  const length = windowSamples;
  const last = length - 1;
  const used = Math.min(audio.length, length);
  const sample = (i: number) => {
    const j = i < 0 || i > last ? reflect(i, last) : i;
    return j < used ? audio[j]! : 0;
  };
  // Power spectrum, [frame][bin], float32 as the extractor keeps it.
  const power = new Float32Array(bins * frames);
  // A frame whose samples are all padding zeros has zero power: skip its transform.
  const silent = (f: number) => f * hop - half >= used && f * hop - half + nFft - 1 <= last;
  const re = new Float64Array(nFft);
  const im = new Float64Array(nFft);
  const win = plan.window;
  const pending: number[] = [];
  const flush = () => {
    const [a, b] = pending;
    for (let n = 0; n < nFft; n++) {
      re[n] = sample(a! * hop - half + n) * win[n]!;
      im[n] = b === undefined ? 0 : sample(b * hop - half + n) * win[n]!;
    }
    fft(plan.fft, re, im);
    for (let k = 0; k < bins; k++) {
      const k2 = k === 0 ? 0 : nFft - k;
      // Two real frames in one transform: A = (Z[k] + conj Z[N-k]) / 2, B = (Z[k] - conj Z[N-k]) / 2i.
      const aRe = (re[k]! + re[k2]!) / 2;
      const aIm = (im[k]! - im[k2]!) / 2;
      power[a! * bins + k] = aRe * aRe + aIm * aIm;
      if (b !== undefined) {
        const bRe = (im[k]! + im[k2]!) / 2;
        const bIm = (re[k2]! - re[k]!) / 2;
        power[b * bins + k] = bRe * bRe + bIm * bIm;
      }
    }
    pending.length = 0;
  };
  for (let f = 0; f < frames; f++) {
    if (silent(f)) continue;
    pending.push(f);
    if (pending.length === 2) flush();
  }
  if (pending.length > 0) flush();

  const mels = plan.bands.length;
  const out = new Float32Array(mels * frames);
  let max = -Infinity;
  for (let f = 0; f < frames; f++) {
    const row = f * bins;
    for (let m = 0; m < mels; m++) {
      const { from, weights } = plan.bands[m]!;
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k]! * power[row + from + k]!;
      const value = Math.fround(Math.log10(Math.max(1e-10, Math.fround(sum))));
      out[m * frames + f] = value;
      if (value > max) max = value;
    }
  }
  const floor = max - 8;
  for (let i = 0; i < out.length; i++) out[i] = (Math.max(out[i]!, floor) + 4) / 4;
  return out;
}
