import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { HarnessOptions } from './harness/media-harness';
import type { HarnessReply } from './harness/media-protocol';

const repo = new URL('..', import.meta.url).pathname;
const shared = join(repo, '..', 'shared');
const media = (path: string) => join(shared, 'media', path);
const scratch = mkdtempSync(join(tmpdir(), 'murmur-e2e-media-'));

/** The preview server serves `.models/` at /hub/: make sure Silero VAD is there. */
function stageVad(): void {
  const target = join(repo, '.models', 'murmur-test', 'silero-vad', 'onnx', 'model.onnx');
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(shared, 'models', 'silero-vad', 'silero_vad.onnx'), target);
}

function generate(name: string, args: string[]): string {
  const out = join(scratch, name);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

async function openHarness(page: Page): Promise<void> {
  const response = await page.goto('/e2e/harness/media.html');
  expect(
    response?.status(),
    'the harness page is built with MURMUR_HARNESS=1 (npm run test:e2e)',
  ).toBe(200);
  await page.waitForFunction(() => 'mediaHarness' in window);
}

async function prepare(
  page: Page,
  file: string | null,
  options: HarnessOptions = {},
): Promise<HarnessReply> {
  if (file !== null) await page.getByTestId('harness.file').setInputFiles(file);
  return page.evaluate((o) => window.mediaHarness.prepare(o), options);
}

async function prepared(page: Page, file: string | null, options: HarnessOptions = {}) {
  const reply = await prepare(page, file, options);
  if (reply.type === 'error') throw new Error(`${reply.data.code}: ${reply.data.message}`);
  return reply.data;
}

async function failure(page: Page, file: string | null, options: HarnessOptions = {}) {
  const reply = await prepare(page, file, options);
  if (reply.type !== 'error') throw new Error(`${file ?? options.url} was accepted`);
  return reply.data;
}

test.describe('the media stage in the browser', () => {
  test.beforeAll(stageVad);
  test.afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  test.beforeEach(async ({ page }) => openHarness(page));

  test('decodes wav, mp3, 24-bit flac and an mp4 video with their metadata', async ({ page }) => {
    const wav = await prepared(page, media('speech/jfk.wav'));
    expect(wav.file).toEqual({
      nb_channels: 1,
      sample_rate: 16000,
      sample_width: 16,
      duration: 11,
      original_file_type: 'audio',
      number_similar_channels: 0,
    });
    expect(wav.nbSilentChannels).toBe(-1);
    expect(wav.channels).toHaveLength(1);
    expect(wav.channels[0]!.length).toBe(176000);
    expect(wav.totalSpeechDuration).toBeGreaterThan(6);
    expect(wav.progress.some((p) => p.startsWith('Decoding audio'))).toBe(true);

    const f32 = await prepared(page, media('diarization/dev00.wav'));
    expect(f32.file).toMatchObject({ sample_width: 32, nb_channels: 1 });

    const mp3 = await prepared(page, media('speech/jfk.mp3'));
    expect(mp3.file).toMatchObject({ sample_rate: 16000, sample_width: 16, nb_channels: 1 });
    expect(mp3.file.duration).toBeCloseTo(11, 1);

    const flac = await prepared(page, media('speech/jfk.flac'));
    expect(flac.file).toEqual({
      nb_channels: 2,
      sample_rate: 44100,
      sample_width: 24,
      duration: 11,
      original_file_type: 'audio',
      number_similar_channels: 1,
    });

    const video = await prepared(page, media('video/echo-hereweare.first12s.derived.mp4'), {
      endpoint: 'video',
    });
    expect(video.file).toMatchObject({
      nb_channels: 2,
      sample_rate: 44100,
      original_file_type: 'video',
    });
    expect(video.file.duration).toBeCloseTo(11.96, 1);
  });

  test('finds identical channels similar and two speakers distinct', async ({ page }) => {
    const same = await prepared(page, media('stereo/LDC93S1_pcms16le_2_44100.wav'));
    expect(same.file.number_similar_channels).toBe(1);
    expect(same.channels.map((c) => c.index)).toEqual([0]);
    expect(same.billing.map((b) => b.reason)).toEqual(['billed', 'similar']);

    const two = await prepared(page, media('stereo/stereo_diarization.wav'));
    expect(two.channels.map((c) => c.index)).toEqual([0, 1]);
    expect(two.billing.map((b) => b.billable_seconds)).toEqual([5, 5]);
    // The split is right: the left channel is the longer sentence.
    expect(two.channels[0]!.speechSeconds).toBeGreaterThan(two.channels[1]!.speechSeconds);
  });

  test('counts a silent channel and gives an all-silent file an empty result', async ({ page }) => {
    const oneSilent = generate('one-silent.wav', [
      '-i',
      media('speech/jfk.wav'),
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
    const audio = await prepared(page, oneSilent);
    expect(audio.nbSilentChannels).toBe(1);
    expect(audio.billing.map((b) => b.reason)).toEqual(['billed', 'silent']);

    const silence = generate('silence.wav', [
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-t',
      '3',
    ]);
    const empty = await prepared(page, silence);
    expect(empty.channels).toEqual([]);
    expect(empty.billing[0]!.reason).toBe('silent');
  });

  test('decodes in windows the same as in one go, and denoises when asked', async ({ page }) => {
    const whole = await prepared(page, media('speech/jfk.mp3'));
    const windowed = await prepared(page, media('speech/jfk.mp3'), { windowSeconds: 2.5 });
    expect(Math.abs(windowed.channels[0]!.length - whole.channels[0]!.length)).toBeLessThan(200);
    expect(windowed.channels[0]!.rms).toBeCloseTo(whole.channels[0]!.rms, 3);
    const denoised = await prepared(page, media('speech/jfk.wav'), { toggleNoiseReduction: true });
    expect(denoised.timings.noise_reduction_time).toBeGreaterThan(0);
  });

  test('keeps long audio in the origin-private file system with the same result as memory', async ({
    page,
  }) => {
    // 44 s, made "long" (kept 16-bit) by the option: blocks of 16 s go to the file.
    const looped = generate('jfk-looped.wav', [
      '-stream_loop',
      '3',
      '-i',
      media('speech/jfk.wav'),
      '-ac',
      '2',
    ]);
    const compact = { compactFromSeconds: 0 };
    const inMemory = await prepared(page, looped, { ...compact, spill: false });
    const stored = await prepared(page, looped, compact);
    expect(inMemory.channels.map((c) => c.stored)).toEqual([false]);
    expect(stored.channels.map((c) => c.stored)).toEqual([true]);
    // Everything but the times and the form the samples were kept in.
    const untimed = (summary: typeof stored) => ({
      file: summary.file,
      nbSilentChannels: summary.nbSilentChannels,
      billing: summary.billing,
      totalSpeechDuration: summary.totalSpeechDuration,
      channels: summary.channels.map(({ stored: _, ...c }) => c),
    });
    expect(untimed(stored)).toEqual(untimed(inMemory));
    // Denoised, a stored channel's output goes to a file of its own: the same samples again.
    const denoise = { ...compact, toggleNoiseReduction: true };
    const denoisedInMemory = await prepared(page, looped, { ...denoise, spill: false });
    const denoisedStored = await prepared(page, looped, denoise);
    expect(denoisedStored.channels.map((c) => c.stored)).toEqual([true]);
    expect(untimed(denoisedStored)).toEqual(untimed(denoisedInMemory));
    expect(denoisedStored.channels[0]!.rms).not.toBe(stored.channels[0]!.rms);
    expect(stored.channels[0]!.length).toBeGreaterThan(16000 * 40);
    // Each run's file is removed once it is read: none is left in the file system.
    const left = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const names: string[] = [];
      for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) {
        names.push(name);
      }
      return names.filter((n) => n.startsWith('murmur-audio-'));
    });
    expect(left).toEqual([]);
  });

  test('refuses bad files, each with its own error', async ({ page }) => {
    const text = join(scratch, 'notes.mp3');
    execFileSync('sh', ['-c', `printf 'meeting notes, not a recording\\n' > ${text}`]);
    expect(await failure(page, text)).toMatchObject({ code: 'unsupported_media' });
    const png = generate('picture.png', [
      '-f',
      'lavfi',
      '-i',
      'color=red:s=32x32',
      '-frames:v',
      '1',
    ]);
    expect((await failure(page, png)).message).toContain('PNG image');
    const cut = join(scratch, 'cut.mp3');
    execFileSync('sh', ['-c', `head -c 40000 ${media('speech/jfk.mp3')} > ${cut}`]);
    expect((await failure(page, cut)).message).toContain('truncated');
    const mute = generate('mute.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x64:rate=10',
      '-t',
      '1',
      '-c:v',
      'mpeg4',
    ]);
    expect((await failure(page, mute)).message).toContain('without an audio track');
  });

  test('fetches a media URL and explains URLs it cannot use', async ({ page }) => {
    const wav = readFileSync(media('speech/jfk.wav'));
    // A server of another origin: /open/ lets other sites read its files, /closed/ does not.
    const server = createServer((req, res) => {
      const open = req.url?.startsWith('/open/') ?? false;
      res.writeHead(200, {
        'content-type': 'audio/wav',
        'content-length': wav.length,
        ...(open ? { 'access-control-allow-origin': '*' } : {}),
      });
      res.end(wav);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const fetched = await prepared(page, null, { url: `http://localhost:${port}/open/jfk.wav` });
      expect(fetched.file.duration).toBe(11);
      expect(fetched.progress.some((p) => p.startsWith('Downloading jfk.wav'))).toBe(true);

      const refused = await failure(page, null, { url: `http://localhost:${port}/closed/jfk.wav` });
      expect(refused.code).toBe('url_fetch_failed');
      expect(refused.message).toContain('CORS');
      expect(refused.message).toContain('drop it here');
    } finally {
      server.close();
    }

    const youtube = await failure(page, null, { url: 'https://www.youtube.com/watch?v=abc' });
    expect(youtube).toMatchObject({ code: 'invalid_request' });
    expect(youtube.message).toContain('YouTube page');
    const origin = new URL(page.url()).origin;
    expect((await failure(page, null, { url: `${origin}/missing.mp3` })).code).toBe(
      'url_fetch_failed',
    );
    expect((await failure(page, null, { url: `${origin}/` })).code).toBe('unsupported_media');
  });
});
