import { compactPcm, pcmFloats, type Pcm } from '../../../core/audio/pcm';
import { spectralDenoise } from '../../../core/audio/spectral-denoise';

/**
 * Murmur's spectral Wiener filter (core/audio/spectral-denoise.ts) on one channel, its noise
 * measured on `noiseFrames`. It runs in one go; the turn of the event loop after it lets a
 * cancel that came meanwhile be heard before the next channel. A 16-bit channel is denoised as
 * floats and kept 16-bit.
 */
export async function denoise(samples: Pcm, noiseFrames: readonly boolean[]): Promise<Pcm> {
  const denoised = spectralDenoise(pcmFloats(samples), { noiseFrames });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return samples instanceof Int16Array ? compactPcm(denoised) : denoised;
}
