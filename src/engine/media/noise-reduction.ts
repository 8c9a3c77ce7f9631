import type { FfmpegPort } from '../ports';
import { SAMPLE_RATE } from './prepared-audio';

/**
 * The denoiser: ffmpeg's FFT noise reducer with noise tracking (it follows a changing noise
 * floor), behind a high-pass that removes rumble under the voice band. Chosen by the
 * measurements of `npm run bench:denoise` (see tools/bench/README.md).
 */
export const DENOISE_FILTER = 'highpass=f=80,afftdn=nr=12:nf=-40:tn=1';

/** Samples per ffmpeg run: 16 M floats (64 MB), about 17 minutes. */
const CHUNK = 16 * 1024 * 1024;
/** Each chunk after the first starts this early so the denoiser has settled at its start. */
const LEAD_IN = 2 * SAMPLE_RATE;
const IN_PATH = '/murmur-denoise-in.f32';
const OUT_PATH = '/murmur-denoise-out.f32';

/** Denoises one 16 kHz channel with ffmpeg, chunk by chunk, returning a new array. */
export async function denoiseChannel(
  ffmpeg: FfmpegPort,
  samples: Float32Array,
  options: { signal?: AbortSignal; filter?: string } = {},
): Promise<Float32Array> {
  const out = new Float32Array(samples.length);
  for (let start = 0; start < samples.length; start += CHUNK) {
    options.signal?.throwIfAborted();
    const from = Math.max(0, start - LEAD_IN);
    const end = Math.min(samples.length, start + CHUNK);
    const chunk = samples.slice(from, end);
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
        options.filter ?? DENOISE_FILTER,
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
    const skip = start - from;
    out.set(denoised.subarray(skip, Math.min(denoised.length, skip + end - start)), start);
  }
  return out;
}
