import { compactPcm, isStoredPcm, pcmFloats, storeFloats, type Pcm } from '../../../core/audio/pcm';
import { denoiseStretches, spectralDenoise } from '../../../core/audio/spectral-denoise';
import type { SpillFile } from '../../ports';
import { SpilledChannels } from '../../streams/spilled-channels';

/**
 * Murmur's spectral Wiener filter (core/audio/spectral-denoise.ts) on one channel, its noise
 * measured on `noiseFrames`. It runs in one go; the turn of the event loop after it lets a
 * cancel that came meanwhile be heard before the next channel. A 16-bit channel is denoised as
 * floats and kept 16-bit. A channel kept in a scratch file is read a stretch at a time and its
 * denoised samples go to another (`scratch`), so memory stays flat; without one they are kept
 * 16-bit in memory.
 */
export async function denoise(
  samples: Pcm,
  noiseFrames: readonly boolean[],
  scratch: () => Promise<SpillFile | null>,
): Promise<Pcm> {
  let denoised: Pcm;
  if (isStoredPcm(samples)) {
    const source = {
      length: samples.length,
      floats: (from: number, to: number) => pcmFloats(samples, from, to),
      inOrder: true,
    };
    const file = await scratch();
    if (file) {
      const store = new SpilledChannels(file, 1);
      denoiseStretches(source, (_, stretch) => store.append(stretch, 0), { noiseFrames });
      denoised = store.channels[0]!;
    } else {
      const out = new Int16Array(samples.length);
      denoiseStretches(source, (at, stretch) => storeFloats(out, at, stretch), { noiseFrames });
      denoised = out;
    }
  } else {
    const floats = spectralDenoise(pcmFloats(samples), { noiseFrames });
    denoised = samples instanceof Int16Array ? compactPcm(floats) : floats;
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  return denoised;
}
