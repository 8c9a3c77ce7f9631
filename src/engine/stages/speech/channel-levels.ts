import { FrameLevelMeter, frameLevelsDb } from '../../../core/audio/levels';
import { pcmPeak, pcmSlice, type Pcm } from '../../../core/audio/pcm';

/** Frames measured per stretch read. */
const STRETCH_FRAMES = 512;

/**
 * The level of each VAD window of each channel, measured once as the channels grow: settled
 * speech is published after every decoded piece, and measuring the whole channel again each
 * time read all of it back each time (from the scratch file, for long audio). The channel's
 * peak, and where channels are to be compared, their envelopes, are taken from the same reads.
 */
export class ChannelLevels {
  private readonly levels: Float32Array[] = [];
  /** The highest absolute sample of the frames measured, per channel (`pcmPeak`'s units). */
  private readonly peaks: number[] = [];

  /** Per channel, the envelope's levels measured so far, when `envelopeFrame` is given. */
  private readonly envelopes: FrameLevelMeter[] = [];

  /**
   * `frameLength`: the VAD window's samples. `envelopeFrame`: the samples of the envelope
   * frames that channel comparison measures (`envelopeFrameLength`), or null when there is no
   * other channel to compare with.
   */
  constructor(
    private readonly frameLength: number,
    private readonly envelopeFrame: number | null = null,
  ) {}

  /** The levels of the whole frames among the first `length` samples of channel `index`. */
  of(index: number, samples: Pcm, length = samples.length): Float32Array {
    const known = this.levels[index] ?? new Float32Array(0);
    const frames = Math.floor(Math.min(length, samples.length) / this.frameLength);
    if (frames <= known.length) return known.subarray(0, frames);
    const all = new Float32Array(frames);
    all.set(known);
    // A stretch at a time: read whole, ten hours would be a 1.15 GB copy out of the file.
    for (let f = known.length; f < frames; f += STRETCH_FRAMES) {
      const end = Math.min(frames, f + STRETCH_FRAMES);
      const stretch = pcmSlice(samples, f * this.frameLength, end * this.frameLength);
      all.set(frameLevelsDb(stretch, this.frameLength), f);
      this.peaks[index] = Math.max(this.peaks[index] ?? 0, pcmPeak(stretch));
      this.envelope(index)?.push(stretch);
    }
    this.levels[index] = all;
    return all;
  }

  /**
   * The highest absolute sample of the whole of channel `index`, as `pcmPeak` finds it: what
   * was not measured yet is measured now, and only the part after the last whole frame is read
   * for the peak alone. Reading a ten-hour channel back once more at its end, for its peak,
   * raised the page's memory by a quarter of a gigabyte for a few seconds.
   */
  peak(index: number, samples: Pcm): number {
    const frames = this.of(index, samples).length;
    const rest = pcmPeak(pcmSlice(samples, frames * this.frameLength));
    return Math.max(this.peaks[index] ?? 0, rest);
  }

  /**
   * The envelope's levels over the whole of channel `index` (`frameLevelsDb` at the envelope
   * frame), from the same reads and the part after the last whole frame; null without an
   * envelope frame.
   */
  envelopeLevels(index: number, samples: Pcm): Float32Array | null {
    if (this.envelopeFrame === null) return null;
    const frames = this.of(index, samples).length;
    return this.envelope(index)!.levelsWith(pcmSlice(samples, frames * this.frameLength));
  }

  private envelope(index: number): FrameLevelMeter | null {
    if (this.envelopeFrame === null) return null;
    return (this.envelopes[index] ??= new FrameLevelMeter(this.envelopeFrame));
  }
}
