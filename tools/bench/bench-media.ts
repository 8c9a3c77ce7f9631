/**
 * Media for the benchmarks, generated with Debian's ffmpeg into `.cache/bench/` (kept between
 * runs, never committed) from the shared recordings.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const SHARED = resolve(process.env.MURMUR_SHARED ?? join(REPO, '..', 'shared'));
export const CACHE = join(REPO, '.cache', 'bench');
export const sharedMedia = (path: string) => join(SHARED, 'media', path);

function ffmpeg(args: readonly string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: 'inherit',
  });
}

/** A generated file in `.cache/bench/`, made with ffmpeg's `args` the first time it is asked for. */
function cached(name: string, args: readonly string[]): string {
  mkdirSync(CACHE, { recursive: true });
  const out = join(CACHE, name);
  if (existsSync(out) && statSync(out).size > 0) return out;
  console.error(`Generating ${out} ...`);
  ffmpeg([...args, out]);
  return out;
}

/**
 * A recording of `seconds` with a different talker on each channel (JFK looped on the left,
 * an AMI meeting looped on the right): 44.1 kHz stereo mp3 at 128 kbit/s, the commonest kind
 * of long upload.
 */
export function longStereoMp3(seconds = 3600): string {
  return cached(`stereo-${seconds}s.mp3`, [
    '-stream_loop',
    '-1',
    '-i',
    sharedMedia('speech/jfk.wav'),
    '-stream_loop',
    '-1',
    '-i',
    sharedMedia('diarization/dev00.wav'),
    '-filter_complex',
    '[0:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono[l];' +
      '[1:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono[r];[l][r]amerge=inputs=2[a]',
    '-map',
    '[a]',
    '-t',
    String(seconds),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
  ]);
}

/**
 * A generated mono 44.1 kHz mp3 of `seconds`: the first talker alone, looped. For lengths where
 * stereo would take too long to run (10 hours).
 */
export function longMonoMp3(seconds = 3600): string {
  return cached(`mono-${seconds}s.mp3`, [
    '-stream_loop',
    '-1',
    '-i',
    sharedMedia('speech/jfk.wav'),
    '-af',
    'aresample=44100',
    '-ac',
    '1',
    '-t',
    String(seconds),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
  ]);
}

/** Peak resident memory (VmHWM) of a process, in MB, from /proc. */
export function peakRssMb(pid: number | 'self' = 'self'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Current resident memory of a process in MB (0 when it is gone). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Seconds of audio under which the long-transcription benchmarks file each memory sample. */
export const PEAK_SLICE_SECONDS = 600;

/**
 * The peak of each hour of a `seconds`-long recording from the peaks of its slices
 * (`PEAK_SLICE_SECONDS` each); the last hour also takes any slice after it, what comes once
 * recognition reaches the very end.
 */
export function hourlyPeaks(
  peakBySlice: readonly (number | undefined)[],
  seconds: number,
): number[] {
  const perHour = 3600 / PEAK_SLICE_SECONDS;
  const count = Math.ceil(seconds / 3600);
  return Array.from({ length: count }, (_, h) => {
    const slices = peakBySlice.slice(h * perHour, h === count - 1 ? undefined : (h + 1) * perHour);
    return Math.round(Math.max(0, ...Array.from(slices, (mb) => mb ?? 0)));
  });
}

/** The value after `--name` on the command line, if given. */
export function commandOption(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/**
 * What both long-transcription benchmarks take from the command line: the length
 * (`--seconds`, ten hours by default), `--stereo`, the model (`--model`), the forced tokens per
 * second (`--tokens`), and the generated mp3 they make of it.
 */
export function longRunOptions() {
  const seconds = Number(commandOption('seconds') ?? 36000);
  const stereo = process.argv.includes('--stereo');
  return {
    seconds,
    stereo,
    modelId: commandOption('model') ?? 'murmur-test/whisper-synth',
    tokens: Number(commandOption('tokens') ?? 3.5),
    media: stereo ? longStereoMp3(seconds) : longMonoMp3(seconds),
  };
}
