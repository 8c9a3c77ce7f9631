/**
 * Linear resampling to 16 kHz, block by block, for browsers whose AudioContext will not run at
 * 16 kHz. Linear interpolation is enough for speech recognition at these rates, and it carries
 * its position across blocks so that no sample is dropped or repeated at a block's edge.
 */
export class Resampler {
  private readonly step: number;
  /** Where the next output sample lies, in input samples from the start of the next block. */
  private position = 0;
  private last = 0;

  constructor(
    from: number,
    private readonly to = 16000,
  ) {
    this.step = from / to;
  }

  push(input: Float32Array): Float32Array {
    if (this.step === 1) return input.slice();
    const out: number[] = [];
    // Position -1 is the last sample of the block before.
    while (this.position < input.length - 1) {
      const i = Math.floor(this.position);
      const frac = this.position - i;
      const a = i < 0 ? this.last : input[i]!;
      const b = input[i + 1]!;
      out.push(a + (b - a) * frac);
      this.position += this.step;
    }
    this.position -= input.length;
    this.last = input[input.length - 1] ?? this.last;
    return Float32Array.from(out);
  }
}
