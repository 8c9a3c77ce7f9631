import { contentAgreement } from './channel-content';
import { frameLevelsDb } from './levels';
import type { Pcm } from './pcm';

/**
 * How alike two channels are: the best correlation of their level envelopes over a lag, and,
 * where the envelopes match, how well their spectra agree at that lag.
 */
export interface ChannelComparison {
  /** Pearson correlation of the two dB envelopes at the best lag, -1..1. */
  score: number;
  /** Seconds by which `b` lags `a` at the best match (negative: `b` leads). */
  lagSeconds: number;
  /**
   * Mean correlation of the spectral shapes at the best lag, -1..1 (`contentAgreement`); null
   * when the envelopes already differ, or when too little speech is loud in both to judge.
   */
  content: number | null;
}

export interface SimilarityOptions {
  /** Envelope frame length. */
  frameSeconds: number;
  /** Largest delay between copies that is searched, either way. */
  maxLagSeconds: number;
  /** Levels more than this far below a channel's loudest frame count as its floor. */
  dynamicRangeDb: number;
}

export const DEFAULT_SIMILARITY_OPTIONS: SimilarityOptions = {
  frameSeconds: 0.01,
  maxLagSeconds: 1,
  dynamicRangeDb: 50,
};

/**
 * At or above this envelope score two channels may carry the same content. Identical,
 * delayed, attenuated and re-encoded copies score above 0.95; two people talking in turns
 * score near or below 0; but two different sentences spoken at once, framed by the same
 * silences, reach 0.84: the envelope alone cannot confirm a copy.
 */
export const SIMILARITY_THRESHOLD = 0.8;

/**
 * At or above this spectral agreement the envelope's match is confirmed. Copies delayed,
 * attenuated, re-encoded (mp3 at 24 kb/s, 8 kHz mu-law) or under crosstalk 20 dB down agree at
 * 0.88 or more; different sentences, or the same sentence in another voice, at 0.25 or less.
 * A wrong "similar" loses a person's words and a wrong "distinct" only bills a channel twice,
 * so anything short of a clear match is distinct.
 */
export const CONTENT_THRESHOLD = 0.6;

/**
 * The level of each envelope frame of both channels (`frameLevelsDb` at
 * `envelopeFrameLength`), where the caller measured them as the channels grew: read again from
 * a long stored channel, they would cost a copy of all of it.
 */
export interface EnvelopeLevels {
  a: Float32Array;
  b: Float32Array;
}

/** How many samples an envelope frame holds at this rate. */
export function envelopeFrameLength(
  sampleRate: number,
  options: Partial<SimilarityOptions> = {},
): number {
  const o = { ...DEFAULT_SIMILARITY_OPTIONS, ...options };
  return Math.max(1, Math.round(sampleRate * o.frameSeconds));
}

function envelope(frameLevels: Float32Array, rangeDb: number): Float32Array {
  const levels = Float32Array.from(frameLevels);
  let max = -Infinity;
  for (const l of levels) max = Math.max(max, l);
  const floor = max - rangeDb;
  for (let i = 0; i < levels.length; i++) levels[i] = Math.max(floor, levels[i]!);
  return levels;
}

function correlationAt(a: Float32Array, b: Float32Array, lag: number): number {
  const start = Math.max(0, -lag);
  const end = Math.min(a.length, b.length - lag);
  const n = end - start;
  if (n < 2) return 0;
  let sa = 0;
  let sb = 0;
  for (let i = start; i < end; i++) {
    sa += a[i]!;
    sb += b[i + lag]!;
  }
  const ma = sa / n;
  const mb = sb / n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = start; i < end; i++) {
    const da = a[i]! - ma;
    const db = b[i + lag]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  // Two flat envelopes (steady tones, constant noise) are alike; one flat one is not.
  if (va === 0 || vb === 0) return va === vb ? 1 : 0;
  return cov / Math.sqrt(va * vb);
}

/**
 * Compares two channels of the same file sample for sample rate. The level envelopes in dB
 * find the lag, and rule out channels whose speech comes at different times; a copy that is
 * attenuated (a constant dB offset), delayed (the lag search) or re-encoded (small spectral
 * changes, same envelope) still matches them. Where they match, the spectra at that lag must
 * agree too, so that two talkers with a similar rhythm are not taken for one.
 */
export function compareChannels(
  a: Pcm,
  b: Pcm,
  sampleRate: number,
  options: Partial<SimilarityOptions> = {},
  measured?: EnvelopeLevels,
): ChannelComparison {
  const o = { ...DEFAULT_SIMILARITY_OPTIONS, ...options };
  if (!(sampleRate > 0)) throw new RangeError('sampleRate must be positive.');
  const frameLength = envelopeFrameLength(sampleRate, o);
  const levels = measured ?? { a: frameLevelsDb(a, frameLength), b: frameLevelsDb(b, frameLength) };
  const ea = envelope(levels.a, o.dynamicRangeDb);
  const eb = envelope(levels.b, o.dynamicRangeDb);
  if (ea.length < 2 || eb.length < 2) return { score: 0, lagSeconds: 0, content: null };
  const maxLag = Math.min(Math.round(o.maxLagSeconds / o.frameSeconds), ea.length - 2);
  let best = -Infinity;
  let bestLag = 0;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    const c = correlationAt(ea, eb, lag);
    if (c > best || (c === best && Math.abs(lag) < Math.abs(bestLag))) {
      best = c;
      bestLag = lag;
    }
  }
  const lagSamples = bestLag * frameLength;
  // The spectra are compared only where the envelopes match: elsewhere the verdict is made.
  const content =
    best >= SIMILARITY_THRESHOLD
      ? contentAgreement(a, b, sampleRate, lagSamples, {}, levels, frameLength)
      : null;
  return { score: best, lagSeconds: lagSamples / sampleRate, content };
}

/** True when a comparison says the two channels carry the same content. */
export function areSimilar(comparison: ChannelComparison): boolean {
  return (
    comparison.score >= SIMILARITY_THRESHOLD &&
    comparison.content !== null &&
    comparison.content >= CONTENT_THRESHOLD
  );
}
