import {
  DEFAULT_SPEECH_REGION_OPTIONS,
  settledSpeechRegions,
  speechRegions,
  type SpeechRegionOptions,
  type TimeSpan,
} from '../audio/speech-regions';
import type { Seconds } from '../units';

/** The speech regions of a live channel as far as it is scored. */
export interface LiveRegions {
  /** Regions that later audio cannot change (all of them once the recording has ended). */
  settled: TimeSpan[];
  /** Every region, the settled ones first: the last may still grow, or merge with the next. */
  all: TimeSpan[];
}

/**
 * The speech probabilities of one channel of a live recording (one per VAD window), and its
 * regions found from them with the file path's rules (`speechRegions`). Probabilities before a
 * point no region can reach any more are dropped, so a long session holds a few seconds of
 * them; dropping is exact: the regions after the cut are those of the whole channel.
 */
export class LiveSpeech {
  private probabilities = new Float32Array(0);
  /** Window index (in the recording) of `probabilities[0]`, and how many are held. */
  private base = 0;
  private count = 0;
  private readonly options: SpeechRegionOptions;

  constructor(options: Partial<SpeechRegionOptions> = {}) {
    this.options = { ...DEFAULT_SPEECH_REGION_OPTIONS, ...options };
  }

  /** Windows scored so far, from the start of the recording. */
  get scoredWindows(): number {
    return this.base + this.count;
  }

  /** Seconds scored so far. */
  get scoredSeconds(): Seconds {
    return this.scoredWindows * this.options.windowSeconds;
  }

  /** Probabilities held (for memory figures). */
  get retained(): number {
    return this.count;
  }

  /** The probabilities of the next windows. */
  add(scores: Float32Array): void {
    if (this.count + scores.length > this.probabilities.length) {
      const larger = new Float32Array(Math.max(256, (this.count + scores.length) * 2));
      larger.set(this.probabilities.subarray(0, this.count));
      this.probabilities = larger;
    }
    this.probabilities.set(scores, this.count);
    this.count += scores.length;
  }

  /** The regions so far, in seconds from the start of the recording. */
  regions(ended: boolean): LiveRegions {
    const held = this.probabilities.subarray(0, this.count);
    const shift = this.base * this.options.windowSeconds;
    const duration = this.count * this.options.windowSeconds;
    const move = (r: TimeSpan) => ({ start: r.start + shift, end: r.end + shift });
    return {
      settled: settledSpeechRegions(held, duration, ended, this.options).map(move),
      all: speechRegions(held, duration, this.options).map(move),
    };
  }

  /**
   * Drops the probabilities before `seconds`, or before the latest earlier point where region
   * finding is at rest: the `minSilenceSeconds` before it and the padding after it are all
   * below the negative threshold, so no region is open there and none that starts later is
   * padded back over it.
   */
  dropBefore(seconds: Seconds): void {
    const o = this.options;
    const quietBefore = Math.ceil(o.minSilenceSeconds / o.windowSeconds);
    const quietAfter = Math.ceil(o.padSeconds / o.windowSeconds);
    const limit = Math.min(
      this.count - quietAfter,
      Math.floor(seconds / o.windowSeconds) - this.base,
    );
    // The run of quiet windows ending at each index, read backwards from the limit.
    let cut = -1;
    let quiet = 0;
    const p = this.probabilities;
    // Scanning back from the end of the quiet stretch after the candidate.
    for (let i = Math.min(this.count, limit + quietAfter) - 1; i >= 0; i--) {
      if (p[i]! < o.negativeThreshold) quiet++;
      else quiet = 0;
      // Windows i..i+quiet-1 are quiet: a cut at k = i + quietBefore has quietBefore of them
      // before it and needs quietAfter more after it.
      const k = i + quietBefore;
      if (quiet >= quietBefore + quietAfter && k <= limit) {
        cut = k;
        break;
      }
    }
    if (cut <= 0) return;
    this.probabilities.copyWithin(0, cut, this.count);
    this.count -= cut;
    this.base += cut;
  }
}
