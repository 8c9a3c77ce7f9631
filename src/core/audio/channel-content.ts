import { fft, fftPlan } from './fft';
import { frameLevelsDb } from './levels';
import { pcmSlice, type Pcm } from './pcm';

/**
 * Whether two channels say the same thing, judged on the shape of their spectra frame by frame
 * at a given lag. Level envelopes alone cannot tell two talkers with a similar rhythm from a
 * copy; the spectrum's shape (formants, pitch harmonics) differs from one sound to the next,
 * so two different sentences or two different voices agree only by chance, while a copy keeps
 * its shape through a delay, a gain, a lossy codec or a little crosstalk.
 */
export interface ContentOptions {
  /** Analysis frame and hop. */
  frameSeconds: number;
  hopSeconds: number;
  /** Bands are spread on the mel scale over this range: the telephone band, which survives codecs. */
  lowHz: number;
  highHz: number;
  bands: number;
  /** A frame counts where both channels are within this much of their loud level. */
  activeRangeDb: number;
  /** Fewer frames where both channels are active than this, and nothing is confirmed. */
  minFrames: number;
  /** Frames beyond this are sampled evenly: the verdict needs a sample, not every frame. */
  maxFrames: number;
}

export const DEFAULT_CONTENT_OPTIONS: ContentOptions = {
  frameSeconds: 0.032,
  hopSeconds: 0.01,
  lowHz: 100,
  highHz: 3800,
  bands: 24,
  activeRangeDb: 15,
  minFrames: 50,
  maxFrames: 6000,
};

function hzToMel(hz: number): number {
  return 2595 * Math.log10(1 + hz / 700);
}

function melToHz(mel: number): number {
  return 700 * (10 ** (mel / 2595) - 1);
}

/** Triangular band edges as FFT bin positions (fractional), bands + 2 of them. */
function bandEdges(o: ContentOptions, size: number, sampleRate: number): number[] {
  const high = Math.min(o.highHz, sampleRate / 2);
  const lo = hzToMel(o.lowHz);
  const hi = hzToMel(high);
  return Array.from(
    { length: o.bands + 2 },
    (_, i) => (melToHz(lo + ((hi - lo) * i) / (o.bands + 1)) * size) / sampleRate,
  );
}

/**
 * Frames where a channel is within `rangeDb` of its loud level (the level 5% of its frames
 * reach, so that one click does not set it). Crosstalk from the other channel, well below the
 * channel's own talker, is left out: it would agree with the other channel whatever this
 * channel's own talker says.
 */
function activeFrames(levels: Float32Array, rangeDb: number): Uint8Array {
  const sorted = Float32Array.from(levels).sort();
  const loud = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  return Uint8Array.from(levels, (l) => (l >= loud - rangeDb ? 1 : 0));
}

/**
 * The mean correlation, over frames where both channels are active, of their log band
 * energies with each band's mean and each frame's mean removed: the spectral shape, with the
 * level and any steady colouring (a codec, a microphone) taken out. About 1 for a copy, near 0
 * for unrelated speech. `lagSamples` is how far `b` lags `a`. Null when too few frames are
 * active in both to judge. `measured` are both channels' levels (`frameLevelsDb`) in frames of
 * `measuredFrame` samples, where the caller has them: used when that frame is the hop.
 */
export function contentAgreement(
  a: Pcm,
  b: Pcm,
  sampleRate: number,
  lagSamples: number,
  options: Partial<ContentOptions> = {},
  measured?: { a: Float32Array; b: Float32Array },
  measuredFrame?: number,
): number | null {
  const o = { ...DEFAULT_CONTENT_OPTIONS, ...options };
  if (!(sampleRate > 0)) throw new RangeError('sampleRate must be positive.');
  const hop = Math.max(1, Math.round(sampleRate * o.hopSeconds));
  const size = Math.max(8, Math.round(sampleRate * o.frameSeconds));
  const lag = Math.round(lagSamples);
  // Frame f of `a` starts at f·hop, and its match in `b` at f·hop + lag.
  const levels =
    measured && measuredFrame === hop
      ? measured
      : { a: frameLevelsDb(a, hop), b: frameLevelsDb(b, hop) };
  const activeA = activeFrames(levels.a, o.activeRangeDb);
  const activeB = activeFrames(levels.b, o.activeRangeDb);
  const starts: number[] = [];
  for (let f = 0; f < activeA.length; f++) {
    const sa = f * hop;
    const sb = sa + lag;
    if (sb < 0 || sb + size > b.length || sa + size > a.length) continue;
    // A frame is active in `b` if the hop it starts in is.
    if (activeA[f] && activeB[Math.floor(sb / hop)]) starts.push(sa);
  }
  if (starts.length < o.minFrames) return null;
  const step = Math.max(1, starts.length / o.maxFrames);
  const picked: number[] = [];
  for (let i = 0; i < starts.length; i += step) picked.push(starts[Math.floor(i)]!);

  const plan = fftPlan(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const hann = Float64Array.from(
    { length: size },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size),
  );
  const edges = bandEdges(o, size, sampleRate);
  const bins = Math.floor(size / 2) + 1;
  const power = new Float64Array(bins);
  const spectrum = (samples: Pcm, start: number, out: Float64Array, at: number) => {
    const frame = pcmSlice(samples, start, start + size);
    for (let i = 0; i < size; i++) {
      re[i] = frame[i]! * hann[i]!;
      im[i] = 0;
    }
    fft(plan, re, im);
    for (let k = 0; k < bins; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    for (let band = 0; band < o.bands; band++) {
      const [left, centre, right] = [edges[band]!, edges[band + 1]!, edges[band + 2]!];
      let sum = 0;
      for (let k = Math.max(0, Math.ceil(left)); k <= Math.min(bins - 1, right); k++) {
        const w = k <= centre ? (k - left) / (centre - left) : (right - k) / (right - centre);
        if (w > 0) sum += w * power[k]!;
      }
      out[at + band] = Math.log10(sum + 1e-12);
    }
  };
  const n = picked.length;
  const sa = new Float64Array(n * o.bands);
  const sb = new Float64Array(n * o.bands);
  picked.forEach((start, f) => {
    spectrum(a, start, sa, f * o.bands);
    spectrum(b, start + lag, sb, f * o.bands);
  });
  for (const s of [sa, sb]) {
    for (let band = 0; band < o.bands; band++) {
      let mean = 0;
      for (let f = 0; f < n; f++) mean += s[f * o.bands + band]!;
      mean /= n;
      for (let f = 0; f < n; f++) s[f * o.bands + band]! -= mean;
    }
  }
  let total = 0;
  for (let f = 0; f < n; f++) {
    total += shapeCorrelation(sa, sb, f * o.bands, o.bands);
  }
  return total / n;
}

/** Pearson correlation of two frames' band energies (each frame's own mean removed). */
function shapeCorrelation(a: Float64Array, b: Float64Array, at: number, bands: number): number {
  let ma = 0;
  let mb = 0;
  for (let i = at; i < at + bands; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= bands;
  mb /= bands;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = at; i < at + bands; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : 0;
}
