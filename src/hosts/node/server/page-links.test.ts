import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import type { ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { jobClient } from '../../../../tools/testing/jobs/job-client';
import { REPO } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { processesWith, startPageHost } from '../../../../tools/testing/server/page-host';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';
import { scratchDir, sentence, spokenFile } from '../../../../tools/testing/speech';

const AUDIO = ENDPOINTS.audio.path;
const YT_DLP_VERSION = execFileSync('yt-dlp', ['--version'], { encoding: 'utf8' }).trim();

let dir = '';
let speech = '';
let clip = '';
let uploads = '';
let host: Awaited<ReturnType<typeof startPageHost>>;
let server: ServeProcess;

const post = (form: string[]) => curl([...form.flatMap((f) => ['-F', f]), `${server.url}${AUDIO}`]);

/** Every file under `folder`, by name. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

beforeAll(async () => {
  dir = scratchDir();
  uploads = join(dir, 'uploads');
  speech = spokenFile(dir, 'talk', [{ language: 'en', text: sentence('en', 611, 9) }]).path;
  clip = join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=navy:s=160x120:r=10', '-i', speech],
    ...['-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', clip],
  ]);
  host = await startPageHost(speech, { video: clip });
  // The pages are served on loopback, which the guard refuses: private addresses are allowed
  // here, and the guard is on for the test of its refusal below.
  server = await startServe(['--no-auth', '--allow-private-urls', '--upload-dir', uploads]);
}, 120_000);

afterAll(async () => {
  await server.stop();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('murmur serve: links to web pages', () => {
  it('says at start-up and in /health that links to web pages are read', async () => {
    expect(server.stderr()).toContain(
      `murmur serve: links to web pages: read with yt-dlp ${YT_DLP_VERSION}\n`,
    );
    const health = (await curl([`${server.url}/health`])).json();
    expect(health.page_links).toEqual({ available: true, yt_dlp: YT_DLP_VERSION });
  });

  it('answers a page with og:video with the transcript of the recording it names', async () => {
    const file = (await post([`audio=@${speech}`])).json() as unknown as TranscriptionResponse;
    const answer = await post([`audio_url=${host.url('/og-video.html')}`]);
    expect(answer.status).toBe(200);
    const page = answer.json() as unknown as TranscriptionResponse;
    expect(page.prediction_raw.transcription.length).toBeGreaterThan(0);
    expect(page.prediction_raw.transcription).toEqual(file.prediction_raw.transcription);
    expect(page.prediction).toBe(file.prediction);
    const metadata = page.prediction_raw.metadata;
    expect(metadata.provided_file_metadata).toEqual(
      file.prediction_raw.metadata.provided_file_metadata,
    );
    expect(metadata.provided_file_metadata.original_file_type).toBe('audio');
    expect(metadata.source_page).toEqual({
      url: host.url('/og-video.html'),
      title: 'A talk on a page',
    });
    expect(file.prediction_raw.metadata.source_page).toBeUndefined();
  }, 120_000);

  it('answers the video endpoint for a page with <video> as for the video file itself', async () => {
    const VIDEO = ENDPOINTS.video.path;
    const send = async (field: string) =>
      (
        await curl(['-F', field, `${server.url}${VIDEO}`])
      ).json() as unknown as TranscriptionResponse;
    const file = await send(`video=@${clip}`);
    const page = await send(`video_url=${host.url('/video.html')}`);
    expect(page.prediction_raw.transcription.length).toBeGreaterThan(0);
    expect(page.prediction_raw.transcription).toEqual(file.prediction_raw.transcription);
    expect(page.prediction_raw.metadata.provided_file_metadata.original_file_type).toBe('video');
    expect(page.prediction_raw.metadata.source_page).toEqual({
      url: host.url('/video.html'),
      // yt-dlp numbers the media elements of a page after its title.
      title: 'A talk on video',
    });
  }, 120_000);

  it('runs a /v2 job on a page with <audio> to the same transcript', async () => {
    const jobs = jobClient(server.url);
    const file = (await post([`audio=@${speech}`])).json() as unknown as TranscriptionResponse;
    const { id } = (await jobs.submit([`audio_url=${host.url('/audio.html')}`])).json() as {
      id: string;
    };
    const done = await jobs.until(id, (v) => v.status === 'done', 'done', 90_000);
    const result = done.result as TranscriptionResponse;
    expect(result.prediction_raw.transcription).toEqual(file.prediction_raw.transcription);
    expect(result.prediction_raw.metadata.source_page?.url).toBe(host.url('/audio.html'));
  }, 120_000);

  it('answers a page without media with 415 and its sentence, synchronously and as a job', async () => {
    const answer = await post([`audio_url=${host.url('/no-media.html')}`]);
    expect(answer.status).toBe(415);
    const body = answer.json() as unknown as ErrorBody;
    const sentence =
      'The page at audio_url holds no media yt-dlp can read. Link to the media file itself.';
    expect(body).toMatchObject({ error: 'unsupported_media', statusCode: 415, message: sentence });
    const jobs = jobClient(server.url);
    const { id } = (await jobs.submit([`audio_url=${host.url('/no-media.html')}`])).json() as {
      id: string;
    };
    const ended = await jobs.until(id, (v) => v.status === 'error', 'in error', 60_000);
    expect(ended.error).toMatchObject({ error: 'unsupported_media', message: sentence });
  }, 120_000);

  it('answers a page that declares media longer than the limit with 413, before fetching it', async () => {
    const answer = await post([`audio_url=${host.url('/long.html')}`]);
    expect(answer.status).toBe(413);
    expect(answer.json()).toMatchObject({
      error: 'payload_too_large',
      message:
        'The media on the page at audio_url is longer than this service accepts: it accepts media of up to 120 min, and this holds 180 min.',
      field_errors: [
        { field: 'audio_url', message: 'audio_url holds more than 120 min of media.' },
      ],
    });
  }, 60_000);

  it('ends yt-dlp and leaves no file when a job reading a page is cancelled', async () => {
    const jobs = jobClient(server.url);
    host.requests.length = 0;
    const { id } = (await jobs.submit([`audio_url=${host.url('/slow.html')}`])).json() as {
      id: string;
    };
    for (let i = 0; i < 600 && !host.requests.includes('GET /slow.wav'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // The yt-dlp that fetches the media names its info file in the job's folder, under the
    // uploads, on its command line.
    const reading = () => processesWith(uploads, 'page-info.json');
    expect(reading().length).toBeGreaterThan(0);
    expect((await jobs.cancel(id)).status).toBe(200);
    await jobs.until(id, (v) => v.status === 'cancelled', 'cancelled', 30_000);
    for (let i = 0; i < 100 && reading().length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(reading()).toEqual([]);
    expect(processesWith(host.url('/slow.html'))).toEqual([]);
    expect(filesUnder(uploads).filter((name) => name.startsWith('page-'))).toEqual([]);
  }, 120_000);
});

describe('murmur serve with the address guard on', () => {
  it('refuses, at its proxy, a private address yt-dlp is led to, and never reaches it', async () => {
    const ledAstray = join(REPO, 'tools', 'testing', 'server', 'led-astray-yt-dlp.mjs');
    const target = host.url('/recording.wav');
    const guarded = await startServe(
      ['--no-auth', '--upload-dir', join(dir, 'guarded-uploads'), '--yt-dlp', ledAstray],
      { PAGE_LEADS_TO: target },
    );
    try {
      host.requests.length = 0;
      const answer = await curl([
        '-F',
        'audio_url=https://www.youtube.com/watch?v=abc',
        `${guarded.url}${AUDIO}`,
      ]);
      const message = `audio_url leads to "${target}", which is not a public address (loopback, private or reserved addresses are not fetched).`;
      expect(answer.status).toBe(422);
      expect(answer.json()).toMatchObject({
        error: 'invalid_request',
        message,
        field_errors: [{ field: 'audio_url', message }],
      });
      expect(host.requests).toEqual([]);
    } finally {
      expect(await guarded.stop()).toBe(0);
    }
  }, 120_000);
});

describe('murmur serve without yt-dlp', () => {
  it('says so at start-up and in /health, and refuses a page saying what to install', async () => {
    const missing = join(dir, 'no-such-yt-dlp');
    const bare = await startServe([
      '--no-auth',
      '--allow-private-urls',
      '--upload-dir',
      join(dir, 'bare-uploads'),
      '--yt-dlp',
      missing,
    ]);
    try {
      expect(bare.stderr()).toContain(
        `murmur serve: links to web pages: not available (no yt-dlp runs as "${missing}"; install yt-dlp or name it with --yt-dlp PATH)\n`,
      );
      const health = (await curl([`${bare.url}/health`])).json();
      expect(health.page_links).toEqual({ available: false, yt_dlp: null });
      const answer = await curl([
        '-F',
        `audio_url=${host.url('/og-video.html')}`,
        `${bare.url}${AUDIO}`,
      ]);
      expect(answer.status).toBe(501);
      const message =
        'audio_url is a web page: media is read from web pages with yt-dlp, which is not installed here. Install yt-dlp (or name it with --yt-dlp PATH), or link to the media file itself.';
      expect(answer.json()).toMatchObject({
        error: 'not_supported',
        message,
        field_errors: [{ field: 'audio_url', message }],
      });
    } finally {
      expect(await bare.stop()).toBe(0);
    }
  }, 120_000);
});
