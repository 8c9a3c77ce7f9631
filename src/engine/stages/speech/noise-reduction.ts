import { spectralDenoise } from '../../../core/audio/spectral-denoise';

/**
 * Murmur's spectral Wiener filter (core/audio/spectral-denoise.ts) on one channel, its noise
 * measured on `noiseFrames`. It runs in one go; the turn of the event loop after it lets a
 * cancel that came meanwhile be heard before the next channel.
 */
export async function denoise(
  samples: Float32Array,
  noiseFrames: readonly boolean[],
): Promise<Float32Array> {
  const denoised = spectralDenoise(samples, { noiseFrames });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return denoised;
}
