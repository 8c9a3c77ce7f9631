/**
 * The recent samples of one channel of a live recording: samples are appended at the end and
 * dropped from the start, and are addressed by their index from the start of the recording, so
 * that a long session holds only the seconds still needed, not all of it.
 */
export class SampleBuffer {
  private data = new Float32Array(0);
  /** Index in the recording of `data[offset]`, the first sample held. */
  private first = 0;
  /** Where the first held sample lies in `data`, and how many are held. */
  private offset = 0;
  private length = 0;

  /** Index in the recording of the first sample held. */
  get start(): number {
    return this.first;
  }

  /** Samples received so far (one past the index of the last). */
  get end(): number {
    return this.first + this.length;
  }

  /** Samples held. */
  get retained(): number {
    return this.length;
  }

  append(samples: Float32Array): void {
    if (this.offset + this.length + samples.length > this.data.length) {
      const needed = this.length + samples.length;
      // Moved to the front when that makes room; a larger array otherwise.
      if (needed <= this.data.length / 2) {
        this.data.copyWithin(0, this.offset, this.offset + this.length);
      } else {
        const larger = new Float32Array(Math.max(needed * 2, 16_000));
        larger.set(this.data.subarray(this.offset, this.offset + this.length));
        this.data = larger;
      }
      this.offset = 0;
    }
    this.data.set(samples, this.offset + this.length);
    this.length += samples.length;
  }

  /**
   * The samples `from`..`to` (indices in the recording), as a view that later appends may
   * overwrite: copy it to keep it. `from` must not lie before `start`.
   */
  view(from: number, to: number = this.end): Float32Array {
    if (from < this.first) {
      throw new RangeError(`Sample ${from} was dropped (the buffer starts at ${this.first}).`);
    }
    const a = this.offset + Math.min(this.length, from - this.first);
    const b = this.offset + Math.max(0, Math.min(this.length, to - this.first));
    return this.data.subarray(a, Math.max(a, b));
  }

  /** Drops the samples before `index` (indices in the recording). */
  dropBefore(index: number): void {
    const drop = Math.max(0, Math.min(this.length, index - this.first));
    this.first += drop;
    this.offset += drop;
    this.length -= drop;
    // A buffer that has shrunk a lot gives its memory back.
    if (this.data.length > 64_000 && this.length < this.data.length / 8) {
      const smaller = new Float32Array(Math.max(this.length * 2, 16_000));
      smaller.set(this.data.subarray(this.offset, this.offset + this.length));
      this.data = smaller;
      this.offset = 0;
    }
  }
}
