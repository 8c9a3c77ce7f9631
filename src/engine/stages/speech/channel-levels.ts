import { frameLevelsDb } from '../../../core/audio/levels';
import { pcmSlice, type Pcm } from '../../../core/audio/pcm';

/**
 * The level of each VAD window of each channel, measured once as the channels grow: settled
 * speech is published after every decoded piece, and measuring the whole channel again each
 * time read all of it back each time (from the scratch file, for long audio).
 */
export class ChannelLevels {
  private readonly levels: Float32Array[] = [];

  constructor(private readonly frameLength: number) {}

  /** The levels of the whole frames among the first `length` samples of channel `index`. */
  of(index: number, samples: Pcm, length = samples.length): Float32Array {
    const known = this.levels[index] ?? new Float32Array(0);
    const frames = Math.floor(Math.min(length, samples.length) / this.frameLength);
    if (frames <= known.length) return known.subarray(0, frames);
    const added = frameLevelsDb(
      pcmSlice(samples, known.length * this.frameLength, frames * this.frameLength),
      this.frameLength,
    );
    const all = new Float32Array(frames);
    all.set(known);
    all.set(added, known.length);
    this.levels[index] = all;
    return all;
  }
}
