import { toSamples } from '../core/units';
import type { EnginePorts } from './ports';

/** Seconds of generated audio the detector scores ahead: two of its streams. */
const WARM_UP_SECONDS = 16;

/**
 * Loads what the first stages run (ffmpeg's core and the VAD model) ahead of the first
 * request, so that a file dropped later starts decoding at once; both stay loaded. The
 * detector then scores a few seconds of generated audio once. In Chromium the first run of
 * its WebAssembly slowed itself and what ran beside it (most likely the engine compiling the
 * code it found hot on other threads): on the 121-s recording, with a 32-s first piece, the
 * piece took 0.51 s against 0.30-0.42 s once warmed, and the recogniser's first encoder pass
 * 0.65-0.70 s against 0.52-0.55 s (later passes take 0.40 s: the rest is the recogniser's own
 * first run).
 */
export async function warmUp(ports: EnginePorts, options: { signal?: AbortSignal } = {}) {
  const [, detector] = await Promise.all([ports.ffmpeg.load(), ports.speechDetector(options)]);
  await detector.probabilities(warmUpAudio(), options.signal ? { signal: options.signal } : {});
}

/** Noise at a speaking level, the same at every call (a small linear congruential generator). */
function warmUpAudio(): Float32Array {
  const audio = new Float32Array(toSamples(WARM_UP_SECONDS));
  let state = 1;
  for (let i = 0; i < audio.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    audio[i] = (state / 2 ** 32 - 0.5) * 0.2;
  }
  return audio;
}
