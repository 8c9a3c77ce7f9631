import { storeInterleaved, type StoredPcm } from '../../core/audio/pcm';
import type { SpillFile } from '../ports';

/** Samples per channel in a block: 16.4 s at 16 kHz, 512 KB in 16 bits. */
export const BLOCK_SAMPLES = 1 << 18;

/**
 * Blocks read back and kept, per channel. Readers go forward (speech detection near the
 * decoder, recognition and speaker detection a little behind it, each a window at a time), so
 * a few blocks each serve them all; a read never holds more than the blocks it spans.
 */
const CACHED_BLOCKS_PER_CHANNEL = 6;

/**
 * A read of at most this many samples from a block not in memory reads only its own bytes:
 * frames picked here and there over a long channel (comparing two channels' spectra) would
 * otherwise each read back a whole block, half a gigabyte of blocks for two hours of stereo.
 */
const DIRECT_READ_SAMPLES = 1024;

/**
 * Decoded channels kept 16-bit in a scratch file, block by block: only the block being filled
 * and a few read back are in memory, whatever the length. Block b of channel c lies at byte
 * (b · channels + c) · block bytes. The samples are those the media stage's in-memory buffers
 * hold in their compact form, so what is found in them is the same. The media stage appends
 * decoded windows to it; noise reduction appends a denoised channel to one of its own.
 */
export class SpilledChannels {
  length = 0;
  readonly channels: StoredPcm[];
  /** The block being filled, per channel (block `length / BLOCK_SAMPLES`). */
  private readonly tails: Int16Array[];
  /** Blocks read back, most recently used last. */
  private readonly cache = new Map<number, Int16Array>();

  constructor(
    private readonly file: SpillFile,
    private readonly count: number,
  ) {
    this.tails = Array.from({ length: count }, () => new Int16Array(BLOCK_SAMPLES));
    this.channels = Array.from({ length: count }, (_, c) => new StoredChannel(this, c));
  }

  append(interleaved: Float32Array, from: number): void {
    const frames = interleaved.length / this.count - from;
    let done = 0;
    while (done < frames) {
      const at = this.length % BLOCK_SAMPLES;
      const take = Math.min(frames - done, BLOCK_SAMPLES - at);
      for (let c = 0; c < this.count; c++) {
        storeInterleaved(this.tails[c]!, at, interleaved, c, this.count, from + done, take);
      }
      done += take;
      this.length += take;
      if (this.length % BLOCK_SAMPLES === 0) this.flush(this.length / BLOCK_SAMPLES - 1);
    }
  }

  /** Writes the full tail blocks as block `block`; the tails are then reused. */
  private flush(block: number): void {
    for (let c = 0; c < this.count; c++) {
      const tail = this.tails[c]!;
      this.file.write(
        new Uint8Array(tail.buffer, tail.byteOffset, tail.byteLength),
        this.offset(block, c),
      );
    }
  }

  private offset(block: number, c: number): number {
    return (block * this.count + c) * BLOCK_SAMPLES * 2;
  }

  private block(block: number, c: number): Int16Array {
    if (block === Math.floor(this.length / BLOCK_SAMPLES)) return this.tails[c]!;
    const key = block * this.count + c;
    let samples = this.cache.get(key);
    if (samples) {
      this.cache.delete(key);
    } else {
      samples = new Int16Array(BLOCK_SAMPLES);
      this.file.read(new Uint8Array(samples.buffer), this.offset(block, c));
      while (this.cache.size >= CACHED_BLOCKS_PER_CHANNEL * this.count) {
        this.cache.delete(this.cache.keys().next().value!);
      }
    }
    this.cache.set(key, samples);
    return samples;
  }

  private inMemory(block: number, c: number): boolean {
    return (
      block === Math.floor(this.length / BLOCK_SAMPLES) || this.cache.has(block * this.count + c)
    );
  }

  read(c: number, from: number, to: number): Int16Array {
    const start = Math.max(0, Math.min(from, this.length));
    const end = Math.max(start, Math.min(to, this.length));
    const out = new Int16Array(end - start);
    for (let at = start; at < end;) {
      const block = Math.floor(at / BLOCK_SAMPLES);
      const inside = at - block * BLOCK_SAMPLES;
      const take = Math.min(end - at, BLOCK_SAMPLES - inside);
      if (take <= DIRECT_READ_SAMPLES && !this.inMemory(block, c)) {
        this.file.read(
          new Uint8Array(out.buffer, (at - start) * 2, take * 2),
          this.offset(block, c) + inside * 2,
        );
      } else {
        out.set(this.block(block, c).subarray(inside, inside + take), at - start);
      }
      at += take;
    }
    return out;
  }

  finish(): StoredPcm[] {
    return this.channels;
  }

  /** Bytes of samples in memory: the blocks being filled and those read back and kept. */
  heldBytes(): number {
    return (this.tails.length + this.cache.size) * BLOCK_SAMPLES * 2;
  }
}

/** One channel of the file, as the stages read it. */
class StoredChannel implements StoredPcm {
  constructor(
    private readonly owner: SpilledChannels,
    private readonly index: number,
  ) {}

  get length(): number {
    return this.owner.length;
  }

  read(from: number, to: number): Int16Array {
    return this.owner.read(this.index, from, to);
  }
}
