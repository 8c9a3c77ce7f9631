import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { pcmFloats } from '../../../core/audio/pcm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareChannels } from '../../../core/audio/channel-similarity';
import { ServiceError } from '../../../core/contract/errors';
import { prepareAudio } from '../../pipeline';
import { warmUp } from '../../warm-up';
import type { EnginePorts, FfmpegPort, FfmpegRun } from '../../ports';
import { DEFAULT_MEDIA_SETTINGS, type MediaSettings } from '../../stage-settings';
import { decodeChannels, probeMedia } from './decode';
import type { DecodedPiece } from '../../streams/decoded-media';
import {
  FixtureDir,
  mediaRequest,
  sharedMedia,
  testEnginePorts,
  testModelFiles,
} from '../../../../tools/testing/ffmpeg-fixtures';
import { RUNS_PER_CORE } from '../../ffmpeg-core-facts';
import { nodeFfmpeg } from '../../../hosts/node/ffmpeg-core';
import { diskFile } from '../../../hosts/node/media-file';
import { mp3UnderstatingLength, wavHeader } from '../../../../tools/testing/server/hostile-media';

const ports: EnginePorts = testEnginePorts();
type PrepareOptions = Parameters<typeof prepareAudio>[2];
const options: PrepareOptions = {};
const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

async function prepare(
  path: string,
  overrides: Parameters<typeof mediaRequest>[1] = {},
  extra: PrepareOptions = {},
) {
  const file = await diskFile(path);
  if (file === null) throw new Error(`missing ${path}`);
  return prepareAudio(mediaRequest({ kind: 'file', file }, overrides), ports, {
    ...options,
    ...extra,
  });
}

async function failure(path: string): Promise<ServiceError> {
  try {
    await prepare(path);
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error(`${path} was accepted`);
}

describe('real recordings', () => {
  it('decodes 16-bit wav with its metadata and finds the speech', async () => {
    const audio = await prepare(sharedMedia('speech/jfk.wav'));
    expect(audio.file).toEqual({
      nb_channels: 1,
      sample_rate: 16000,
      sample_width: 16,
      duration: 11,
      original_file_type: 'audio',
      number_similar_channels: 0,
    });
    expect(audio.nbSilentChannels).toBe(-1);
    expect(audio.channels).toHaveLength(1);
    expect(audio.channels[0]!.samples.length).toBe(176000);
    expect(audio.totalSpeechDuration).toBeGreaterThan(6);
    expect(audio.totalSpeechDuration).toBeLessThan(11);
    expect(audio.billing).toEqual([
      { channel: 'channel_0', billable_seconds: 11, reason: 'billed', similar_to: null },
    ]);
    expect(audio.timings.audio_conversion_time).toBeGreaterThan(0);
    expect(audio.timings.vad_time).toBeGreaterThan(0);
  });

  it('decodes 32-bit float wav', async () => {
    const audio = await prepare(sharedMedia('diarization/dev00.wav'));
    expect(audio.file).toMatchObject({
      nb_channels: 1,
      sample_rate: 16000,
      sample_width: 32,
      original_file_type: 'audio',
    });
    expect(audio.file.duration).toBeCloseTo(30, 2);
  });

  it('decodes mp3 and 24-bit stereo flac to the same speech as the wav', async () => {
    const wav = await prepare(sharedMedia('speech/jfk.wav'));
    const mp3 = await prepare(sharedMedia('speech/jfk.mp3'));
    expect(mp3.file).toMatchObject({
      nb_channels: 1,
      sample_rate: 16000,
      sample_width: 16,
      original_file_type: 'audio',
    });
    // The decoded length: ffprobe's 11.088 s counts the encoder's padding, which decoding drops.
    expect(mp3.file.duration).toBeCloseTo(11, 1);
    const flac = await prepare(sharedMedia('speech/jfk.flac'));
    expect(flac.file).toEqual({
      nb_channels: 2,
      sample_rate: 44100,
      sample_width: 24,
      duration: 11,
      original_file_type: 'audio',
      number_similar_channels: 1,
    });
    expect(flac.nbSilentChannels).toBe(0);
    expect(flac.channels.map((c) => c.index)).toEqual([0]);
    expect(flac.billing.map((b) => b.reason)).toEqual(['billed', 'similar']);
    const reference = wav.channels[0]!.samples;
    for (const other of [mp3, flac]) {
      expect(compareChannels(reference, other.channels[0]!.samples, 16000).score).toBeGreaterThan(
        0.95,
      );
    }
  });

  it('extracts the audio track of an mp4 video', async () => {
    const audio = await prepare(sharedMedia('video/echo-hereweare.first12s.derived.mp4'), {
      endpoint: 'video',
    });
    expect(audio.file).toMatchObject({
      nb_channels: 2,
      sample_rate: 44100,
      sample_width: 16,
      original_file_type: 'video',
    });
    expect(audio.file.duration).toBeCloseTo(11.96, 1);
    // A narrator over a music bed: Silero finds no speech under it, but both channels are loud,
    // so neither is silent, and the loud stretches go on to recognition.
    expect(audio.nbSilentChannels).toBe(0);
    expect(audio.billing.map((b) => b.reason)).toEqual(['billed', 'billed']);
    for (const channel of audio.channels) {
      expect(channel.speech.some((r) => r.heard === 'level')).toBe(true);
    }
  });

  it('finds the identical channels of a stereo file similar and bills one', async () => {
    const audio = await prepare(sharedMedia('stereo/LDC93S1_pcms16le_2_44100.wav'));
    expect(audio.file).toMatchObject({
      nb_channels: 2,
      sample_rate: 44100,
      number_similar_channels: 1,
    });
    expect(audio.channels.map((c) => c.index)).toEqual([0]);
    expect(audio.billing).toEqual([
      { channel: 'channel_0', billable_seconds: 2.925, reason: 'billed', similar_to: null },
      { channel: 'channel_1', billable_seconds: 0, reason: 'similar', similar_to: 'channel_0' },
    ]);
  });

  it('splits a stereo file with one speaker per channel into two channels', async () => {
    const audio = await prepare(sharedMedia('stereo/stereo_diarization.wav'));
    expect(audio.file).toMatchObject({ nb_channels: 2, number_similar_channels: 0 });
    expect(audio.nbSilentChannels).toBe(0);
    expect(audio.channels.map((c) => c.index)).toEqual([0, 1]);
    const [left, right] = audio.channels;
    expect(compareChannels(left!.samples, right!.samples, 16000).score).toBeLessThan(0.8);
    expect(audio.billing.map((b) => b.billable_seconds)).toEqual([5, 5]);
  });
});

/** Decodes a file with the media stage's decoder only (no VAD). */
async function decode(path: string, windowSeconds?: number) {
  const file = await diskFile(path);
  if (file === null) throw new Error(`missing ${path}`);
  const input = await ports.ffmpeg.mount({ kind: 'file', file });
  try {
    const probe = await probeMedia(ports.ffmpeg, input, file.name);
    let last: DecodedPiece | null = null;
    for await (const piece of decodeChannels(ports.ffmpeg, input, probe, file.name, {
      settings: DEFAULT_MEDIA_SETTINGS,
      ...(windowSeconds ? { windowSeconds } : {}),
    })) {
      last = piece;
    }
    return last!;
  } finally {
    await ports.ffmpeg.unmount(input);
  }
}

describe('channels', () => {
  let jfk: Float32Array;
  let ldc: Float32Array;
  beforeAll(async () => {
    jfk = pcmFloats((await decode(sharedMedia('speech/jfk.wav'))).channels[0]!);
    ldc = pcmFloats((await decode(sharedMedia('speech/LDC93S1.wav'))).channels[0]!);
  });

  it('splits stereo into its left and right channels', async () => {
    const path = fixtures.ffmpeg('split.wav', [
      '-i',
      sharedMedia('speech/jfk.wav'),
      '-i',
      sharedMedia('speech/LDC93S1.wav'),
      '-filter_complex',
      '[0:a][1:a]amerge=inputs=2[a]',
      '-map',
      '[a]',
      '-ac',
      '2',
    ]);
    const channels = (await decode(path)).channels.map((c) => pcmFloats(c));
    expect(channels).toHaveLength(2);
    expect(
      compareChannels(channels[0]!.subarray(0, 40000), jfk.subarray(0, 40000), 16000).score,
    ).toBeGreaterThan(0.99);
    expect(
      compareChannels(channels[1]!.subarray(0, 40000), ldc.subarray(0, 40000), 16000).score,
    ).toBeGreaterThan(0.99);
    let maxDiff = 0;
    for (let i = 0; i < ldc.length; i++)
      maxDiff = Math.max(maxDiff, Math.abs(channels[1]![i]! - ldc[i]!));
    expect(maxDiff).toBeLessThan(1e-4);
  });

  it('counts a silent channel and does not bill it', async () => {
    const path = fixtures.ffmpeg('one-silent.wav', [
      '-i',
      sharedMedia('speech/jfk.wav'),
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-filter_complex',
      '[0:a][1:a]amerge=inputs=2[a]',
      '-map',
      '[a]',
      '-t',
      '11',
    ]);
    const audio = await prepare(path);
    expect(audio.nbSilentChannels).toBe(1);
    expect(audio.channels.map((c) => c.index)).toEqual([0]);
    expect(audio.billing.map((b) => [b.reason, b.billable_seconds])).toEqual([
      ['billed', 11],
      ['silent', 0],
    ]);
  });

  it('finds a delayed, attenuated, re-encoded copy similar', async () => {
    const copy = fixtures.ffmpeg('copy.mp3', [
      '-i',
      sharedMedia('speech/jfk.wav'),
      '-af',
      'adelay=120,volume=-12dB',
      '-b:a',
      '32k',
    ]);
    const path = fixtures.ffmpeg('copy-stereo.wav', [
      '-i',
      sharedMedia('speech/jfk.wav'),
      '-i',
      copy,
      '-filter_complex',
      '[0:a][1:a]amerge=inputs=2[a]',
      '-map',
      '[a]',
      '-t',
      '11',
    ]);
    const audio = await prepare(path);
    expect(audio.file.number_similar_channels).toBe(1);
    expect(audio.billing[1]).toMatchObject({ reason: 'similar', similar_to: 'channel_0' });
  });

  it('sorts six channels into speech, copies and silence', async () => {
    const part = (name: string, input: string[], filter: string) =>
      fixtures.ffmpeg(name, [
        ...input,
        '-af',
        `${filter},apad`,
        '-t',
        '11',
        '-ar',
        '16000',
        '-ac',
        '1',
        '-c:a',
        'pcm_s16le',
      ]);
    const jfk = ['-i', sharedMedia('speech/jfk.wav')];
    const ldc = ['-i', sharedMedia('speech/LDC93S1.wav')];
    const silence = ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono'];
    const parts = [
      part('c0.wav', jfk, 'anull'),
      part('c1.wav', ldc, 'anull'),
      part('c2.wav', silence, 'anull'),
      part('c3.wav', jfk, 'volume=0.3'),
      part('c4.wav', ldc, 'adelay=200'),
      part('c5.wav', silence, 'anull'),
    ];
    const path = fixtures.path('six.wav');
    execFileSync('sox', ['-M', ...parts, path]);
    const audio = await prepare(path);
    expect(audio.file).toMatchObject({
      nb_channels: 6,
      sample_rate: 16000,
      number_similar_channels: 2,
    });
    expect(audio.nbSilentChannels).toBe(2);
    expect(audio.channels.map((c) => c.index)).toEqual([0, 1]);
    expect(audio.billing.map((b) => b.reason)).toEqual([
      'billed',
      'billed',
      'silent',
      'similar',
      'similar',
      'silent',
    ]);
    expect(audio.billing[4]!.similar_to).toBe('channel_1');
  });

  it('reads eight channels', async () => {
    const path = fixtures.ffmpeg('eight.flac', [
      '-i',
      sharedMedia('speech/jfk.wav'),
      '-filter_complex',
      '[0:a]asplit=8[a][b][c][d][e][f][g][h];[a][b][c][d][e][f][g][h]amerge=inputs=8[o]',
      '-map',
      '[o]',
      '-t',
      '4',
    ]);
    const audio = await prepare(path);
    expect(audio.file).toMatchObject({ nb_channels: 8, number_similar_channels: 7 });
    expect(audio.channels.map((c) => c.index)).toEqual([0]);
    expect(audio.billing.filter((b) => b.reason === 'billed')).toHaveLength(1);
  });
});

describe('long files are decoded window by window', () => {
  it('finds speech piece by piece while decoding, as in one pass', async () => {
    // 60 s in 10-s windows: VAD scores a 30-s piece while the next windows are decoded.
    const path = sharedMedia('speech/multilingual.mp3');
    const whole = await prepare(path);
    const windowed = await prepare(path, {}, { windowSeconds: 10 });
    const [a, b] = [whole.channels[0]!.speech, windowed.channels[0]!.speech];
    expect(whole.totalSpeechDuration).toBeGreaterThan(30);
    expect(Math.abs(windowed.totalSpeechDuration - whole.totalSpeechDuration)).toBeLessThan(
      0.02 * whole.totalSpeechDuration,
    );
    expect(Math.abs(b.length - a.length)).toBeLessThanOrEqual(1);
    expect(windowed.timings.vad_time).toBeGreaterThan(0);
    expect(windowed.timings.audio_conversion_time).toBeGreaterThan(0);
  });

  for (const name of [
    'speech/jfk.mp3',
    'speech/jfk.flac',
    'video/echo-hereweare.first12s.derived.mp4',
  ]) {
    it(`gives the same audio in 2.5 s windows as in one go: ${name}`, async () => {
      const whole = await decode(sharedMedia(name));
      const windowed = await decode(sharedMedia(name), 2.5);
      expect(Math.abs(windowed.channels[0]!.length - whole.channels[0]!.length)).toBeLessThan(200);
      for (let c = 0; c < whole.channels.length; c++) {
        const a = pcmFloats(whole.channels[c]!);
        const b = pcmFloats(windowed.channels[c]!);
        // Sample-level agreement (not just the envelope): a misplaced window would break it.
        let dot = 0;
        let na = 0;
        let nb = 0;
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
          dot += a[i]! * b[i]!;
          na += a[i]! ** 2;
          nb += b[i]! ** 2;
        }
        expect(dot / Math.sqrt(na * nb)).toBeGreaterThan(0.98);
      }
    });
  }
});

/**
 * Decodes a fixture in windows of `windowSeconds`, keeping the arguments of each ffmpeg run and
 * the length of each piece handed over.
 */
async function decodeKeepingRuns(path: string, settings: MediaSettings, windowSeconds = 10) {
  const runs: (readonly string[])[] = [];
  /** The bytes of the file each run read, the listings' (ffprobe) and the windows' (ffmpeg). */
  const reads: { args: readonly string[]; program: 'ffprobe' | 'ffmpeg'; bytes: number }[] = [];
  const counted = (program: 'ffprobe' | 'ffmpeg', args: readonly string[], run: FfmpegRun) => {
    reads.push({ args, program, bytes: run.bytesRead! });
    return run;
  };
  const ffmpeg: FfmpegPort = {
    ...ports.ffmpeg,
    exec: async (args, opts) => {
      runs.push(args);
      return counted('ffmpeg', args, await ports.ffmpeg.exec(args, opts));
    },
    ffprobe: async (args, opts) => counted('ffprobe', args, await ports.ffmpeg.ffprobe(args, opts)),
  };
  const file = await fixtures.file(path);
  const input = await ffmpeg.mount({ kind: 'file', file });
  try {
    const probe = await probeMedia(ffmpeg, input, file.name);
    const pieces: number[] = [];
    let last: DecodedPiece | null = null;
    for await (const piece of decodeChannels(ffmpeg, input, probe, file.name, {
      windowSeconds,
      settings,
    })) {
      pieces.push(piece.length);
      last = piece;
    }
    return { runs, reads, pieces, channels: last!.channels.map((c) => pcmFloats(c)) };
  } finally {
    await ffmpeg.unmount(input);
  }
}

/** How many samples of two decodes differ (their lengths must match). */
function differing(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  expect(a.map((c) => c.length)).toEqual(b.map((c) => c.length));
  let count = 0;
  for (const [c, samples] of a.entries()) {
    for (let i = 0; i < samples.length; i++) if (samples[i] !== b[c]![i]) count++;
  }
  return count;
}

describe('streams without an index', () => {
  const encodings: [string, string[]][] = [
    // An encoder's padding at both ends, and a variable bit rate.
    ['vbr.mp3', ['-q:a', '5']],
    // 22.05 kHz MPEG-2 frames of 576 samples, two channels.
    ['mpeg2-stereo.mp3', ['-ac', '2', '-ar', '22050', '-b:a', '48k']],
    ['adts.aac', ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts']],
    // 8 kHz MPEG-2.5 at a constant bit rate, and 48 kHz behind an ID3 tag.
    ['mpeg25.mp3', ['-ar', '8000', '-b:a', '16k']],
    ['tagged-48k.mp3', ['-ar', '48000', '-b:a', '128k', '-metadata', 'title=Tagged']],
  ];
  for (const [name, args] of encodings) {
    it(`reads ${name} from packets' bytes with the samples of a seek from the start`, async () => {
      const path = fixtures.ffmpeg(name, ['-i', sharedMedia('speech/multilingual.mp3'), ...args]);
      const fromBytes = await decodeKeepingRuns(path, DEFAULT_MEDIA_SETTINGS);
      // No packet is ever far enough before a window: every window is sought from the start.
      const fromStart = await decodeKeepingRuns(path, {
        ...DEFAULT_MEDIA_SETTINGS,
        anchorMinWarmUpSeconds: Infinity,
      });
      const byByte = (runs: (readonly string[])[]) =>
        runs.filter((a) => a.includes('-skip_initial_bytes')).length;
      // Just over 60 s in 10-s windows: every window after the first, the end's too.
      expect(byByte(fromBytes.runs)).toBe(fromBytes.runs.length - 1);
      expect(fromBytes.runs.length).toBe(7);
      expect(byByte(fromStart.runs)).toBe(0);
      expect(differing(fromBytes.channels, fromStart.channels)).toBe(0);
    });
  }
});

describe('streams longer than their headers say', () => {
  /**
   * The bytes of the file each window read, with the listing from a packet that found its own
   * (the probe, and the one pass over the file's stated length, are not a window's).
   */
  const windowReads = (reads: { args: readonly string[]; program: string; bytes: number }[]) => {
    const windows: number[] = [];
    let listing = 0;
    for (const read of reads) {
      if (read.program === 'ffprobe') {
        if (read.args.includes('-skip_initial_bytes')) listing += read.bytes;
      } else {
        windows.push(listing + read.bytes);
        listing = 0;
      }
    }
    return windows;
  };
  const fixturesOf: [string, () => string][] = [
    // No frame count, and dense first packets: the stated length is a twentieth of 20 minutes.
    [
      'an mp3 whose header understates its length',
      () => mp3UnderstatingLength(fixtures, 'dense-head.mp3', 20),
    ],
    // A file appended to another: the first one's header counts only its own frames.
    [
      'two mp3s appended',
      () => {
        const head = fixtures.ffmpeg('appended-head.mp3', [
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=16000:duration=30',
          '-b:a',
          '64k',
        ]);
        const tail = fixtures.ffmpeg('appended-tail.mp3', [
          '-i',
          sharedMedia('speech/multilingual.mp3'),
          '-ac',
          '1',
          '-b:a',
          '16k',
        ]);
        return fixtures.write(
          'appended.mp3',
          Buffer.concat([readFileSync(head), ...Array<Buffer>(20).fill(readFileSync(tail))]),
        );
      },
    ],
    [
      'an ADTS AAC stream with dense first packets',
      () => {
        const part = (name: string, rate: string, seconds: number) =>
          readFileSync(
            fixtures.ffmpeg(name, [
              '-f',
              'lavfi',
              '-i',
              `sine=frequency=300:sample_rate=16000:duration=${seconds}`,
              '-c:a',
              'aac',
              '-b:a',
              rate,
              '-f',
              'adts',
            ]),
          );
        return fixtures.write(
          'dense-head.aac',
          Buffer.concat([part('dense.aac', '256k', 4), part('sparse.aac', '8k', 1200)]),
        );
      },
    ],
  ];
  for (const [name, make] of fixturesOf) {
    it(`reads each window of ${name} from near its place, with the samples of a seek from the start`, async () => {
      const path = make();
      // Windows alone: the first look is tested on its own (below).
      const windows = { ...DEFAULT_MEDIA_SETTINGS, firstLookSeconds: 0 };
      const fromBytes = await decodeKeepingRuns(path, windows, 60);
      const fromStart = await decodeKeepingRuns(
        path,
        { ...windows, anchorMinWarmUpSeconds: Infinity },
        60,
      );
      expect(fromBytes.runs.length).toBeGreaterThan(12);
      expect(differing(fromBytes.channels, fromStart.channels)).toBe(0);
      // Every window after the first is read from a packet's byte, and what it reads of the
      // file does not grow with its place; a seek from the start reads the file up to it.
      const byByte = fromBytes.runs.filter((a) => a.includes('-skip_initial_bytes')).length;
      expect(byByte).toBe(fromBytes.runs.length - 1);
      const size = statSync(path).size;
      const seconds = fromBytes.channels[0]!.length / 16000;
      // A window's share of the file, and ffmpeg's reads of 32 KB and its probing, for slack.
      const bound = (3 * size * 60) / seconds + 256 * 1024;
      const [first, ...later] = windowReads(fromBytes.reads);
      expect(first).toBeLessThan(bound);
      expect(Math.max(...later)).toBeLessThan(bound);
      // From the start, the window before the last reads most of the file.
      expect(windowReads(fromStart.reads).at(-2)).toBeGreaterThan(0.8 * size);
      const total = (reads: { bytes: number }[]) => reads.reduce((n, r) => n + r.bytes, 0);
      expect(total(fromBytes.reads)).toBeLessThan(4 * size);
      expect(total(fromStart.reads)).toBeGreaterThan(6 * size);
    });
  }
});

/** The seconds Debian's ffmpeg decodes from a file, at 16 kHz: a reference of its own. */
function nativeSeconds(path: string): number {
  const pcm = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-ac', '1', '-ar', '16000', '-f', 's16le', '-'],
    { maxBuffer: 1 << 30 },
  );
  return pcm.length / 2 / 16000;
}

/** Decodes a mounted file whole, or says why not. */
async function decodedSeconds(
  ffmpeg: FfmpegPort,
  path: string,
  options: { windowSeconds: number; maxSeconds?: number },
): Promise<number | string> {
  const file = await fixtures.file(path);
  const input = await ffmpeg.mount({ kind: 'file', file });
  try {
    const probe = await probeMedia(ffmpeg, input, file.name);
    let length = 0;
    for await (const piece of decodeChannels(ffmpeg, input, probe, file.name, {
      ...options,
      settings: DEFAULT_MEDIA_SETTINGS,
    })) {
      length = piece.length;
    }
    return length / 16000;
  } catch (e) {
    if (e instanceof ServiceError) return `${e.status} ${e.message}`;
    throw e;
  } finally {
    await ffmpeg.unmount(input);
  }
}

describe('a stream longer than its header says', () => {
  it('reads an mp3 whose header understates its length whole, the same every time', async () => {
    const path = mp3UnderstatingLength(fixtures, 'understated.mp3', 4);
    const file = await fixtures.file(path);
    const input = await ports.ffmpeg.mount({ kind: 'file', file });
    const stated = (await probeMedia(ports.ffmpeg, input, file.name)).duration!;
    await ports.ffmpeg.unmount(input);
    const real = nativeSeconds(path);
    expect(stated).toBeLessThan(real / 10);
    for (let run = 0; run < 3; run++) {
      const seconds = await decodedSeconds(ports.ffmpeg, path, { windowSeconds: 30 });
      expect(Math.abs(Number(seconds) - real)).toBeLessThan(0.1);
    }
  });

  it('refuses it at the limit every time, as soon as decoding passes it', async () => {
    const path = mp3UnderstatingLength(fixtures, 'understated-long.mp3', 4);
    for (let run = 0; run < 3; run++) {
      expect(await decodedSeconds(ports.ffmpeg, path, { windowSeconds: 30, maxSeconds: 120 })).toBe(
        '413 "understated-long.mp3" is too long for this service: it accepts media of up to 2 min, and this file holds more than that.',
      );
    }
  });

  it('does not take a listing of the end cut short for the end of the stream', async () => {
    const path = fixtures.ffmpeg('three-minutes.mp3', [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:sample_rate=16000:duration=180',
      '-b:a',
      '16k',
    ]);
    // An ffprobe that stops listing packets at 178.5 s, within the listing of the last seconds
    // (as a worn core out of memory did), and writes a well-formed listing of what it read.
    const cutting: FfmpegPort = {
      ...ports.ffmpeg,
      ffprobe: async (args, opts) => {
        const run = await ports.ffmpeg.ffprobe(args, opts);
        if (!args.includes('-read_intervals')) return run;
        const output = args[args.indexOf('-o') + 1]!;
        const listing = JSON.parse(new TextDecoder().decode(await ports.ffmpeg.readFile(output)));
        listing.packets = (listing.packets as { pts_time: string }[]).filter(
          (p) => Number(p.pts_time) < 178.5,
        );
        await ports.ffmpeg.writeFile(output, new TextEncoder().encode(JSON.stringify(listing)));
        return run;
      },
    };
    const whole = await decodedSeconds(ports.ffmpeg, path, { windowSeconds: 30 });
    expect(Math.abs(Number(whole) - nativeSeconds(path))).toBeLessThan(0.1);
    expect(await decodedSeconds(cutting, path, { windowSeconds: 30 })).toBe(whole);
  });
});

describe('the first look', () => {
  // 40 s of speech in 30-s windows, the first 12 s decoded first.
  const looking = { ...DEFAULT_MEDIA_SETTINGS, firstLookSeconds: 12 };
  const encodings: [string, string[]][] = [
    ['look.wav', ['-c:a', 'pcm_s16le']],
    ['look.mp3', ['-b:a', '64k']],
    ['look-stereo.m4a', ['-ac', '2', '-c:a', 'aac', '-b:a', '96k']],
    ['look.opus', ['-c:a', 'libopus', '-b:a', '32k']],
    ['look-44k.flac', ['-ar', '44100']],
  ];
  for (const [name, args] of encodings) {
    it(`hands over the start of ${name} first, with the samples of the whole window`, async () => {
      const path = fixtures.ffmpeg(name, [
        '-i',
        sharedMedia('speech/multilingual.mp3'),
        '-t',
        '40',
        ...args,
      ]);
      const looked = await decodeKeepingRuns(path, looking, 30);
      const plain = await decodeKeepingRuns(
        path,
        { ...DEFAULT_MEDIA_SETTINGS, firstLookSeconds: 0 },
        30,
      );
      // The look, then the two windows; the look's first 11.5 s are handed over alone.
      expect(looked.runs[0]).toContain('12.000000');
      expect(looked.runs.length).toBe(plain.runs.length + 1);
      expect(looked.pieces[0]).toBe(11.5 * 16000);
      expect(plain.pieces[0]).toBe(30 * 16000);
      expect(differing(looked.channels, plain.channels)).toBe(0);
    });
  }

  it('is not taken where the first window or the file is hardly longer', async () => {
    const path = fixtures.ffmpeg('short-look.mp3', [
      '-i',
      sharedMedia('speech/multilingual.mp3'),
      '-t',
      '12.5',
    ]);
    const short = await decodeKeepingRuns(path, looking, 30);
    expect(short.runs.length).toBe(1);
    const narrow = await decodeKeepingRuns(path, { ...looking, firstLookSeconds: 2 }, 2.8);
    expect(narrow.runs.some((a) => a.includes('2.000000'))).toBe(false);
  });
});

describe('a listing from a packet that fails', () => {
  it('leaves its window to a seek from the start, with the same samples', async () => {
    const path = mp3UnderstatingLength(fixtures, 'listing-fails.mp3', 6);
    const failing: FfmpegPort = {
      ...ports.ffmpeg,
      ffprobe: (args, opts) =>
        args.includes('-skip_initial_bytes')
          ? Promise.reject(new Error('memory access out of bounds'))
          : ports.ffmpeg.ffprobe(args, opts),
    };
    const file = await fixtures.file(path);
    const decode = async (ffmpeg: FfmpegPort) => {
      const input = await ffmpeg.mount({ kind: 'file', file });
      try {
        const probe = await probeMedia(ffmpeg, input, file.name);
        let last: DecodedPiece | null = null;
        for await (const piece of decodeChannels(ffmpeg, input, probe, file.name, {
          windowSeconds: 60,
          settings: DEFAULT_MEDIA_SETTINGS,
        })) {
          last = piece;
        }
        return last!.channels.map((c) => pcmFloats(c));
      } finally {
        await ffmpeg.unmount(input);
      }
    };
    const whole = await decode(ports.ffmpeg);
    expect(whole[0]!.length / 16000).toBeGreaterThan(360);
    expect(differing(await decode(failing), whole)).toBe(0);
  });
});

describe("ffmpeg's output", () => {
  it('comes in pieces of about a megabyte, whatever the window, read and deleted in turn', async () => {
    // Five minutes of stereo: windows of 65 s (8 MB of floats each).
    const path = fixtures.ffmpeg('five-minutes-stereo.mp3', [
      '-stream_loop',
      '4',
      '-i',
      sharedMedia('speech/multilingual.mp3'),
      '-ac',
      '2',
      '-b:a',
      '64k',
    ]);
    const read: number[] = [];
    const written = new Set<string>();
    const ffmpeg: FfmpegPort = {
      ...ports.ffmpeg,
      readFile: async (name) => {
        const bytes = await ports.ffmpeg.readFile(name);
        if (name.startsWith('/murmur-window-')) {
          read.push(bytes.length);
          written.add(name);
        }
        return bytes;
      },
    };
    const file = await fixtures.file(path);
    const input = await ffmpeg.mount({ kind: 'file', file });
    let length = 0;
    try {
      const probe = await probeMedia(ffmpeg, input, file.name);
      for await (const piece of decodeChannels(ffmpeg, input, probe, file.name, {
        settings: DEFAULT_MEDIA_SETTINGS,
      })) {
        length = piece.length;
      }
      // Nothing of it is left behind in ffmpeg's files.
      for (const name of written) await expect(ports.ffmpeg.readFile(name)).rejects.toThrow();
    } finally {
      await ffmpeg.unmount(input);
    }
    expect(length / 16000).toBeCloseTo(300, 0);
    // The look's 65 s, then two windows: more than 2 x 8 x 4 bytes a sample for 300 s.
    expect(read.reduce((n, b) => n + b, 0)).toBeGreaterThan(300 * 16000 * 8);
    expect(read.length).toBeGreaterThan(30);
    // A piece ends at the first packet past its megabyte.
    expect(Math.max(...read)).toBeLessThan(1.05 * 2 ** 20);
  });
});

describe('long audio kept 16-bit', () => {
  it('keeps the samples to 16 bits and finds the same speech and billing', async () => {
    const path = fixtures.ffmpeg('compact-stereo.wav', [
      '-i',
      sharedMedia('speech/jfk.wav'),
      '-i',
      sharedMedia('speech/LDC93S1.wav'),
      '-filter_complex',
      '[0:a][1:a]amerge=inputs=2',
    ]);
    const floats = await prepare(path);
    const compact = await prepare(path, {}, { settings: { media: { compactFromSeconds: 0 } } });
    expect(floats.channels[0]!.samples).toBeInstanceOf(Float32Array);
    expect(compact.channels.map((c) => c.samples.constructor)).toEqual([Int16Array, Int16Array]);
    expect(compact.billing).toEqual(floats.billing);
    expect(compact.file).toEqual(floats.file);
    for (const [i, channel] of compact.channels.entries()) {
      const exact = floats.channels[i]!.samples as Float32Array;
      const kept = pcmFloats(channel.samples);
      expect(kept.length).toBe(exact.length);
      let worst = 0;
      for (let k = 0; k < exact.length; k++)
        worst = Math.max(worst, Math.abs(kept[k]! - exact[k]!));
      // Rounding to 16 bits: at most half a step (clipping aside, which this audio never does).
      expect(worst).toBeLessThanOrEqual(0.5 / 32768 + 1e-9);
      const speech = (c: { speech: { start: number; end: number }[] }) =>
        c.speech.reduce((n, s) => n + s.end - s.start, 0);
      expect(speech(channel)).toBeCloseTo(speech(floats.channels[i]!), 1);
    }
  });
});

describe('sample rates and lengths', () => {
  for (const rate of [8000, 192000]) {
    it(`decodes ${rate} Hz audio`, async () => {
      const path = fixtures.ffmpeg(`rate-${rate}.wav`, [
        '-i',
        sharedMedia('speech/jfk.wav'),
        '-ar',
        String(rate),
        '-c:a',
        'pcm_s32le',
      ]);
      const audio = await prepare(path);
      expect(audio.file).toMatchObject({ sample_rate: rate, sample_width: 32, nb_channels: 1 });
      expect(audio.file.duration).toBeCloseTo(11, 2);
      expect(audio.channels[0]!.samples.length).toBeCloseTo(176000, -2);
      expect(audio.totalSpeechDuration).toBeGreaterThan(6);
    });
  }

  it('gives an empty result, not an error, for a file that is all silence', async () => {
    const path = fixtures.ffmpeg('silence.wav', [
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-t',
      '3',
      '-c:a',
      'pcm_s16le',
    ]);
    const audio = await prepare(path);
    expect(audio.channels).toEqual([]);
    expect(audio.nbSilentChannels).toBe(-1);
    expect(audio.totalSpeechDuration).toBe(0);
    expect(audio.billing).toEqual([
      { channel: 'channel_0', billable_seconds: 0, reason: 'silent', similar_to: null },
    ]);
    expect(audio.file.duration).toBe(3);
  });

  it('gives an empty result for 1 ms of audio', async () => {
    const path = fixtures.ffmpeg('one-ms.wav', [
      '-f',
      'lavfi',
      '-i',
      'sine=f=440:r=16000',
      '-t',
      '0.001',
      '-c:a',
      'pcm_s16le',
    ]);
    const audio = await prepare(path);
    expect(audio.file.duration).toBe(0.001);
    expect(audio.channels).toEqual([]);
  });
});

describe('bad input', () => {
  it('refuses an empty file', async () => {
    const error = await failure(fixtures.write('empty.wav', ''));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('empty');
  });

  it('refuses a text file as unsupported media', async () => {
    const error = await failure(
      fixtures.write('notes.mp3', 'These are my meeting notes, not a recording.\n'),
    );
    expect(error.code).toBe('unsupported_media');
    expect(error.status).toBe(415);
    expect(error.message).toContain('text file');
  });

  it('refuses an image as unsupported media', async () => {
    const png = fixtures.ffmpeg('picture.png', [
      '-f',
      'lavfi',
      '-i',
      'color=red:s=32x32',
      '-frames:v',
      '1',
    ]);
    expect((await failure(png)).message).toContain('PNG image');
    const jpeg = fixtures.ffmpeg('picture.jpg', [
      '-f',
      'lavfi',
      '-i',
      'color=blue:s=32x32',
      '-frames:v',
      '1',
    ]);
    expect((await failure(jpeg)).code).toBe('unsupported_media');
  });

  it('refuses a WAV header claiming more channels than a decoder opens with 413, and keeps working', async () => {
    for (const channels of [1000, 65_535]) {
      const body = new Uint8Array(channels * 4).fill(128);
      const error = await failure(
        fixtures.write(`c${channels}.wav`, wavHeader(body.length, body, channels)),
      );
      expect([error.status, error.code]).toEqual([413, 'payload_too_large']);
      expect(error.message).toBe(
        `"c${channels}.wav" has ${channels} audio channels; this service accepts at most 512.`,
      );
    }
    // The same ffmpeg goes on to read the next file.
    const audio = await prepare(sharedMedia('speech/jfk.wav'));
    expect(audio.file.duration).toBeGreaterThan(10);
  });

  it('refuses a truncated mp3', async () => {
    const { readFileSync } = await import('node:fs');
    const cut = fixtures.write(
      'cut.mp3',
      readFileSync(sharedMedia('speech/jfk.mp3')).subarray(0, 40_000),
    );
    const error = await failure(cut);
    expect(error.code).toBe('undecodable_media');
    expect(error.message).toContain('truncated');
  });

  it('refuses a video without an audio track', async () => {
    const video = fixtures.ffmpeg('mute.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x64:rate=10',
      '-t',
      '1',
      '-c:v',
      'mpeg4',
    ]);
    const error = await failure(video);
    expect(error.code).toBe('undecodable_media');
    expect(error.message).toContain('without an audio track');
  });

  it('refuses an unknown codec', async () => {
    const { readFileSync } = await import('node:fs');
    const wav = new Uint8Array(
      readFileSync(
        fixtures.ffmpeg('tagged.wav', [
          '-i',
          sharedMedia('speech/LDC93S1.wav'),
          '-map_metadata',
          '-1',
          '-fflags',
          '+bitexact',
        ]),
      ),
    );
    // The format tag of the fmt chunk (after "RIFF....WAVEfmt ....") names no known codec.
    wav[20] = 0x34;
    wav[21] = 0x12;
    const error = await failure(fixtures.write('unknown-codec.wav', wav));
    expect(error.code).toBe('undecodable_media');
    expect(error.message).toMatch(/codec/);
  });
});

describe('media URLs', () => {
  let base = '';
  let server: import('node:http').Server;
  beforeAll(async () => {
    const { createServer } = await import('node:http');
    const { readFileSync } = await import('node:fs');
    const wav = readFileSync(sharedMedia('speech/jfk.wav'));
    server = createServer((req, res) => {
      if (req.url === '/talk.wav') {
        res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
        res.end(wav);
      } else if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><body>A player page</body></html>');
      } else if (req.url === '/disguised.mp3') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end('<!DOCTYPE html><html><head><title>Sign in</title></head></html>');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => server.close());

  const fromUrl = (url: string, signal?: AbortSignal) =>
    prepareAudio(mediaRequest({ kind: 'url', url }), ports, {
      ...options,
      ...(signal ? { signal } : {}),
    });
  const urlFailure = async (url: string) => {
    try {
      await fromUrl(url);
    } catch (e) {
      if (e instanceof ServiceError) return e;
      throw e;
    }
    throw new Error(`${url} was accepted`);
  };

  it('fetches and decodes a media URL, reporting download progress', async () => {
    const steps: string[] = [];
    const audio = await prepareAudio(
      mediaRequest({ kind: 'url', url: `${base}/talk.wav` }),
      ports,
      {
        ...options,
        onProgress: (_stage, _fraction, detail) => steps.push(detail),
      },
    );
    expect(audio.file.duration).toBe(11);
    expect(steps.some((s) => s.startsWith('Downloading talk.wav'))).toBe(true);
  });

  it('refuses web pages, missing files, social platform pages and unreachable hosts', async () => {
    expect((await urlFailure(`${base}/page`)).code).toBe('unsupported_media');
    expect((await urlFailure(`${base}/disguised.mp3`)).message).toContain('web page');
    const missing = await urlFailure(`${base}/missing.wav`);
    expect(missing.code).toBe('url_fetch_failed');
    expect(missing.message).toContain('404');
    const youtube = await urlFailure('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(youtube.code).toBe('invalid_request');
    expect(youtube.message).toBe(
      "audio_url is a YouTube page, not a media file: this page cannot fetch media from other sites, but Murmur's command line (murmur transcribe --audio_url LINK) or a Murmur server can. Here, download the audio or video file and drop it in, or give a direct link to the file.",
    );
    expect(youtube.problems[0]!.field).toBe('audio_url');
    expect((await urlFailure('http://127.0.0.1:9/talk.wav')).code).toBe('url_fetch_failed');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(fromUrl(`${base}/talk.wav`, controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('noise reduction', () => {
  it('denoises the channels that go on to recognition, and times it', async () => {
    const plain = await prepare(sharedMedia('speech/jfk.wav'));
    const denoised = await prepare(sharedMedia('speech/jfk.wav'), { toggle_noise_reduction: true });
    expect(denoised.timings.noise_reduction_time).toBeGreaterThan(0);
    expect(denoised.timings.audio_conversion_time).toBeGreaterThanOrEqual(
      denoised.timings.noise_reduction_time,
    );
    const a = pcmFloats(plain.channels[0]!.samples);
    const b = pcmFloats(denoised.channels[0]!.samples);
    expect(b.length).toBe(a.length);
    expect(b).not.toEqual(a);
    // Clean speech stays the same speech, sample for sample (the filter's delay is taken out).
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i]! * b[i]!;
      na += a[i]! ** 2;
      nb += b[i]! ** 2;
    }
    expect(dot / Math.sqrt(na * nb)).toBeGreaterThan(0.95);
    expect(plain.timings.noise_reduction_time).toBe(0);
  });
});

describe('ffmpeg.wasm core lifetime', () => {
  it('keeps working past the number of runs one core survives, mounts included', async () => {
    const ffmpeg = nodeFfmpeg();
    const file = await diskFile(sharedMedia('speech/LDC93S1.wav'));
    const input = await ffmpeg.mount({ kind: 'file', file: file! });
    for (let i = 0; i < RUNS_PER_CORE * 2 + 10; i++) {
      const run = await ffmpeg.exec([
        '-v',
        'error',
        '-i',
        input,
        '-t',
        '0.05',
        '-f',
        'f32le',
        '/probe.f32',
      ]);
      expect(run.exitCode).toBe(0);
      await ffmpeg.deleteFile('/probe.f32');
    }
    const probe = await probeMedia(ffmpeg, input, 'LDC93S1.wav');
    expect(probe.sampleRate).toBe(16000);
    await ffmpeg.unmount(input);
  });
});

describe('model loading', () => {
  it('says which model could not be loaded, and from where', async () => {
    const missing = testEnginePorts({
      vadModel: 'someone/missing-vad',
      modelFiles: {
        host: 'https://models.example.com/',
        get: () => Promise.reject(new TypeError('Failed to fetch')),
      },
    });
    const file = await diskFile(sharedMedia('speech/LDC93S1.wav'));
    const error = await prepareAudio(mediaRequest({ kind: 'file', file: file! }), missing).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'engine_unavailable' });
    expect((error as ServiceError).message).toContain('someone/missing-vad');
    expect((error as ServiceError).message).toContain('https://models.example.com/');
  });

  it('loads ffmpeg and the VAD model ahead of a request, each once', async () => {
    let fetches = 0;
    const files = testModelFiles();
    const counted = testEnginePorts({
      modelFiles: {
        host: files.host,
        get: (...args) => {
          fetches++;
          return files.get(...args);
        },
      },
    });
    await warmUp(counted);
    expect(fetches).toBe(1);
    const file = await diskFile(sharedMedia('speech/jfk.wav'));
    const audio = await prepareAudio(mediaRequest({ kind: 'file', file: file! }), counted, options);
    expect(audio.totalSpeechDuration).toBeGreaterThan(5);
    expect(fetches).toBe(1);
  });

  it('reports a warm-up that cannot load the VAD model', async () => {
    const missing = testEnginePorts({
      vadModel: 'someone/missing-vad',
      modelFiles: {
        host: 'https://models.example.com/',
        get: () => Promise.reject(new TypeError('Failed to fetch')),
      },
    });
    const error = await warmUp(missing).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'engine_unavailable' });
  });
});
