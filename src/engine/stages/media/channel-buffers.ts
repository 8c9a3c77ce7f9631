import { storeInterleaved, type Pcm, type PcmArray } from '../../../core/audio/pcm';
import { toSamples } from '../../../core/units';

/** Where decoded windows are appended, one channel each: in memory or in a scratch file. */
export interface DecodedChannels {
  /** The channels so far; an array may be replaced by a longer one as windows are appended. */
  readonly channels: readonly Pcm[];
  /** Samples per channel so far. */
  readonly length: number;
  /** Appends interleaved frames `from`.. of `interleaved` at the end. */
  append(interleaved: Float32Array, from: number): void;
  /** The channels once every window is in. */
  finish(): Pcm[];
  /** Bytes of decoded samples these buffers hold in memory now (capacity included). */
  heldBytes(): number;
}

/** Per-channel arrays (floats, or 16-bit when `compact`) that grow as windows arrive. */
export class ChannelBuffers implements DecodedChannels {
  channels: PcmArray[];
  length = 0;

  constructor(
    count: number,
    capacity: number,
    private readonly compact: boolean,
  ) {
    this.channels = Array.from({ length: count }, () => this.allocate(capacity));
  }

  private allocate(length: number): PcmArray {
    return this.compact ? new Int16Array(length) : new Float32Array(length);
  }

  private ensure(length: number): void {
    const capacity = this.channels[0]!.length;
    if (length <= capacity) return;
    const grown = Math.max(length, Math.ceil(capacity * 1.5));
    this.channels = this.channels.map((c) => {
      const next = this.allocate(grown);
      next.set(c.subarray(0, this.length) as never);
      return next;
    });
  }

  append(interleaved: Float32Array, from: number): void {
    const count = this.channels.length;
    const frames = interleaved.length / count - from;
    if (frames <= 0) return;
    this.ensure(this.length + frames);
    for (let c = 0; c < count; c++) {
      const channel = this.channels[c]!;
      if (channel instanceof Int16Array) {
        storeInterleaved(channel, this.length, interleaved, c, count, from, frames);
        continue;
      }
      for (let f = 0; f < frames; f++) {
        channel[this.length + f] = interleaved[(from + f) * count + c]!;
      }
    }
    this.length += frames;
  }

  heldBytes(): number {
    return this.channels.reduce((sum, c) => sum + c.byteLength, 0);
  }

  /** The arrays cut to length; copies only when much capacity would be wasted. */
  finish(): PcmArray[] {
    return this.channels.map((c) =>
      c.length - this.length > toSamples(10) ? c.slice(0, this.length) : c.subarray(0, this.length),
    );
  }
}
