import { alignWindow } from '../../src/core/audio/window-alignment';
import { SAMPLE_RATE } from '../../src/core/units';
import type { FfmpegPort } from '../../src/engine/ports';

/**
 * Noise reduction with an ffmpeg filter, for comparison in `npm run bench:denoise`: the
 * speech stage uses Murmur's own spectral Wiener filter (core/audio/spectral-denoise.ts), which
 * measured several dB better on noisy speech (see tools/bench/README.md). This is the best of
 * the ffmpeg filters measured: the FFT noise reducer with noise tracking.
 */
export const DENOISE_FILTER = 'afftdn=nr=12:nf=-40:tn=1';

/** Samples per ffmpeg run: 16 M floats (64 MB), about 17 minutes. */
const CHUNK = 16 * 1024 * 1024;
/** Each chunk after the first starts this early so the denoiser has settled at its start. */
const LEAD_IN = 2 * SAMPLE_RATE;
/** Samples added after each chunk, so that a filter's delay does not cut off its end. */
const TAIL = 8192;
/** The largest filter delay looked for (afftdn delays by 400 samples at 16 kHz). */
const MAX_DELAY = 2048;
const IN_PATH = '/murmur-denoise-in.f32';
const OUT_PATH = '/murmur-denoise-out.f32';

/** Filter delays found so far: a filter's delay does not change, so it is measured once. */
const knownDelays = new Map<string, number>();

/**
 * How many samples the filter delayed its output by, found by matching the output against the
 * input where the chunk is loudest. Speech survives denoising, so the two still line up.
 */
function filterDelay(input: Float32Array, output: Float32Array, filter: string): number {
  const known = knownDelays.get(filter);
  if (known !== undefined) return known;
  const length = Math.min(SAMPLE_RATE, input.length - 2 * MAX_DELAY);
  if (length >= SAMPLE_RATE / 4) {
    let best = MAX_DELAY;
    let bestEnergy = -1;
    const step = SAMPLE_RATE / 2;
    for (let start = MAX_DELAY; start + length + MAX_DELAY <= input.length; start += step) {
      let e = 0;
      for (let i = start; i < start + length; i += 4) e += input[i]! ** 2;
      if (e > bestEnergy) {
        bestEnergy = e;
        best = start;
      }
    }
    // output[i + delay] ~ input[i]: find the input's place inside the output.
    const reference = output.subarray(best - MAX_DELAY, best + length + MAX_DELAY);
    if (reference.length === length + 2 * MAX_DELAY) {
      const { lag, correlation } = alignWindow(
        reference,
        input.subarray(best, best + length),
        MAX_DELAY,
      );
      if (correlation >= 0.5) {
        knownDelays.set(filter, lag);
        return lag;
      }
    }
  }
  return 0;
}

/**
 * Denoises one 16 kHz channel with ffmpeg, chunk by chunk, returning a new array aligned
 * sample for sample with the input (the filter's own delay is taken out, so speech regions and
 * word times found on the original still hold).
 */
export async function denoiseChannel(
  ffmpeg: FfmpegPort,
  samples: Float32Array,
  options: { signal?: AbortSignal; filter?: string } = {},
): Promise<Float32Array> {
  const filter = options.filter ?? DENOISE_FILTER;
  const out = new Float32Array(samples.length);
  for (let start = 0; start < samples.length; start += CHUNK) {
    options.signal?.throwIfAborted();
    const from = Math.max(0, start - LEAD_IN);
    const end = Math.min(samples.length, start + CHUNK);
    const chunk = new Float32Array(end - from + TAIL);
    chunk.set(samples.subarray(from, end));
    // The tail mirrors the end rather than being zeros: decaying filter state over zeros
    // turns into denormal floats, which WebAssembly computes with very slowly.
    for (let i = 0; i < TAIL; i++)
      chunk[end - from + i] = chunk[Math.max(0, end - from - 1 - (i % (end - from)))]!;
    await ffmpeg.writeFile(IN_PATH, new Uint8Array(chunk.buffer));
    const run = await ffmpeg.exec(
      [
        '-hide_banner',
        '-nostats',
        '-v',
        'error',
        '-f',
        'f32le',
        '-ar',
        String(SAMPLE_RATE),
        '-ac',
        '1',
        '-i',
        IN_PATH,
        '-af',
        filter,
        '-c:a',
        'pcm_f32le',
        '-f',
        'f32le',
        OUT_PATH,
      ],
      options.signal ? { signal: options.signal } : {},
    );
    await ffmpeg.deleteFile(IN_PATH);
    if (run.exitCode !== 0) {
      throw new Error(`Noise reduction failed: ${run.log.slice(-2).join(' / ')}`);
    }
    const bytes = await ffmpeg.readFile(OUT_PATH);
    await ffmpeg.deleteFile(OUT_PATH);
    const denoised = new Float32Array(bytes.slice().buffer, 0, Math.floor(bytes.length / 4));
    const delay = Math.max(0, Math.min(TAIL, filterDelay(chunk, denoised, filter)));
    const skip = start - from + delay;
    out.set(denoised.subarray(skip, Math.min(denoised.length, skip + end - start)), start);
  }
  return out;
}
