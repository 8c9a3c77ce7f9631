import { Gauge, Histogram, type Registry } from 'prom-client';
import type { DecodedAudioHeld } from '../../../engine/streams/decoded-media';

/** The histogram's buckets: 1 MB to 4 GB, four times apart. */
const PEAK_BUCKETS = [20, 22, 24, 26, 28, 30, 32].map((power) => 2 ** power);

/**
 * What decoded audio the transcriptions of this process hold in memory, as the engine keeps
 * account of it (`PipelineOptions.onDecodedAudio`): the samples of short audio, and the blocks
 * of a scratch file being filled and read back (the file itself is on disk). Read from the
 * engine rather than from the process's resident memory, which the runtime gives back to the
 * system when it chooses and which counts the models too.
 */
export class DecodedAudioAccount {
  /** Each run under way, with the bytes it was last told to hold. */
  private readonly runs = new Map<symbol, number>();
  private readonly peaks: ((peakBytes: number) => void)[] = [];

  /**
   * A listener for one job's runs (one at a time): it counts the run's bytes while it holds
   * them, and its peak once it lets them go.
   */
  job(): (held: DecodedAudioHeld) => void {
    const run = Symbol('run');
    return ({ bytes, peakBytes }) => {
      if (bytes > 0) {
        this.runs.set(run, bytes);
        return;
      }
      if (!this.runs.delete(run)) return;
      for (const observe of this.peaks) observe(peakBytes);
    };
  }

  /** Bytes of decoded audio held in memory now, by every run under way. */
  bytes(): number {
    let sum = 0;
    for (const bytes of this.runs.values()) sum += bytes;
    return sum;
  }

  /** Adds the account's metrics to `registry` (a server's or a worker's `/metrics`). */
  register(registry: Registry): void {
    const bytes = () => this.bytes();
    new Gauge({
      name: 'murmur_decoded_audio_bytes',
      help: 'Bytes of decoded audio the transcriptions of this process hold in memory now.',
      registers: [registry],
      collect() {
        this.set(bytes());
      },
    });
    const peaks = new Histogram({
      name: 'murmur_decoded_audio_peak_bytes',
      help: 'The most bytes of decoded audio one transcription held in memory at once, observed as it ends.',
      buckets: PEAK_BUCKETS,
      registers: [registry],
    });
    this.peaks.push((peakBytes) => peaks.observe(peakBytes));
  }
}
