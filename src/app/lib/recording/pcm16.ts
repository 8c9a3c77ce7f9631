/** Samples as 16-bit PCM: half the room of float, and what a WAV file holds. */

/** One block of each channel's float samples, interleaved into 16-bit PCM. */
export function interleave16(channels: readonly Float32Array[]): Int16Array {
  const count = channels.length;
  const frames = channels[0]?.length ?? 0;
  const out = new Int16Array(frames * count);
  for (let c = 0; c < count; c++) {
    const samples = channels[c]!;
    for (let i = 0; i < frames; i++) {
      const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
      out[i * count + c] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
    }
  }
  return out;
}

/** The loudest sample of a block, 0 to 1, for a level meter. */
export function peakLevel(samples: Float32Array): number {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  return Math.min(1, peak);
}
