/**
 * The audio thread's side of a recording: gathers each channel's samples into blocks of a tenth
 * of a second and posts them to the page (transferred), so that the page handles ten messages a
 * second instead of one every 128 samples.
 */

declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: { processorOptions?: unknown });
}
declare function registerProcessor(name: string, processor: typeof AudioWorkletProcessor): void;
declare const sampleRate: number;

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly channels: number;
  private readonly size = Math.round(sampleRate / 10);
  private blocks: Float32Array[];
  private filled = 0;

  constructor(options: { processorOptions?: unknown }) {
    super(options);
    this.channels = (options.processorOptions as { channels: number }).channels;
    this.blocks = this.fresh();
  }

  private fresh(): Float32Array[] {
    return Array.from({ length: this.channels }, () => new Float32Array(this.size));
  }

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0] ?? [];
    // A source with no sound yet (or gone) gives no channels: it still counts as silence, so
    // that the channels stay aligned in time.
    const frames = input[0]?.length ?? 128;
    let at = 0;
    while (at < frames) {
      const n = Math.min(frames - at, this.size - this.filled);
      for (let c = 0; c < this.channels; c++) {
        const from = input[c];
        if (from) this.blocks[c]!.set(from.subarray(at, at + n), this.filled);
      }
      this.filled += n;
      at += n;
      if (this.filled === this.size) {
        const full = this.blocks;
        this.port.postMessage(
          full,
          full.map((b) => b.buffer),
        );
        this.blocks = this.fresh();
        this.filled = 0;
      }
    }
    return true;
  }
}

registerProcessor('murmur-capture', CaptureProcessor);
