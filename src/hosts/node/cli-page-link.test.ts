import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { processesWith, startPageHost } from '../../../tools/testing/server/page-host';
import { deadUrl } from '../../../tools/testing/server/receiver';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';
import { main } from './cli';

const BIN = join(REPO, 'src', 'hosts', 'node', 'murmur.mjs');
const MODELS = ['--models', join(REPO, '.models'), '--model', TEST_WHISPER_ID];

let dir = '';
let speech = '';
let host: Awaited<ReturnType<typeof startPageHost>>;
/** An origin nothing listens at. */
let dead = '';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['transcribe', ...argv, ...MODELS], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = scratchDir();
  speech = spokenFile(dir, 'talk', [{ language: 'en', text: sentence('en', 612, 9) }]).path;
  dead = new URL(await deadUrl()).origin;
  host = await startPageHost(speech, { deadOrigin: dead });
}, 60_000);

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('murmur transcribe --audio_url <a web page>', () => {
  it('prints the transcript of the recording the page embeds, and names the page', async () => {
    const file = await run(speech);
    expect(file.code).toBe(0);
    const page = await run('--audio_url', host.url('/og-video.html'));
    expect(page.stderr).toBe('');
    expect(page.code).toBe(0);
    const fromFile = JSON.parse(file.stdout) as TranscriptionResponse;
    const fromPage = JSON.parse(page.stdout) as TranscriptionResponse;
    expect(fromPage.prediction_raw.transcription.length).toBeGreaterThan(0);
    expect(fromPage.prediction_raw.transcription).toEqual(fromFile.prediction_raw.transcription);
    expect(fromPage.prediction_raw.metadata.source_page).toEqual({
      url: host.url('/og-video.html'),
      title: 'A talk on a page',
    });
    // A page's <audio>: its title as the page has it, not as yt-dlp numbers its recordings.
    const embedded = await run('--audio_url', host.url('/audio.html'));
    expect(embedded.code).toBe(0);
    expect(
      (JSON.parse(embedded.stdout) as TranscriptionResponse).prediction_raw.metadata.source_page,
    ).toEqual({ url: host.url('/audio.html'), title: 'A podcast episode' });
  }, 120_000);

  it('refuses a page without media with the error body and its sentence (exit 2)', async () => {
    const { code, stdout, stderr } = await run('--audio_url', host.url('/no-media.html'));
    const sentence =
      'The page at audio_url holds no media yt-dlp can read. Link to the media file itself.';
    expect(code).toBe(2);
    expect(JSON.parse(stdout) as ErrorBody).toMatchObject({
      error: 'unsupported_media',
      statusCode: 415,
      message: sentence,
    });
    expect(stderr).toBe(`murmur: ${sentence}\n`);
  }, 60_000);

  it("names why a page's media could not be had: a server that refuses, a file:// address", async () => {
    const refused = await run('--audio_url', host.url('/refused.html'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `murmur: The media at audio_url could not be fetched: it leads to "${dead}/talk.mp3", whose server refused the connection.\n`,
    );
    const file = await run('--audio_url', host.url('/file-link.html'));
    expect(file.code).toBe(2);
    expect(JSON.parse(file.stdout) as ErrorBody).toMatchObject({ statusCode: 422 });
    expect(file.stderr).toBe(
      'murmur: The page at audio_url links to a file:// address (a file of the machine that reads the page), which is never fetched. Link to media on the web.\n',
    );
  }, 120_000);

  it('says what to install when --yt-dlp names no program, for a page and for a platform link', async () => {
    const missing = join(dir, 'no-such-yt-dlp');
    for (const url of [host.url('/audio.html'), 'https://www.youtube.com/watch?v=abc']) {
      const { code, stdout, stderr } = await run('--audio_url', url, '--yt-dlp', missing);
      expect(code).toBe(1);
      expect(JSON.parse(stdout) as ErrorBody).toMatchObject({
        error: 'not_supported',
        statusCode: 501,
      });
      expect(stderr).toBe(
        'murmur: --audio_url is a web page: media is read from web pages with yt-dlp, which is not installed here. Install yt-dlp (or name it with --yt-dlp PATH), or link to the media file itself.\n',
      );
    }
  }, 60_000);

  it('ends yt-dlp and removes its folder on Ctrl-C, ending by the signal (status 130)', async () => {
    host.requests.length = 0;
    const child = spawn(process.execPath, [
      BIN,
      'transcribe',
      '--audio_url',
      host.url('/slow.html'),
      ...MODELS,
    ]);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    for (let i = 0; i < 600 && !host.requests.includes('GET /slow.wav'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // The yt-dlp that fetches the media (a child of this run) names its info file, in the run's
    // own folder.
    const parentOf = (id: number) => {
      try {
        return Number(readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      } catch {
        return NaN; // Gone meanwhile.
      }
    };
    const [pid] = processesWith('murmur-page-', 'page-info.json').filter(
      (id) => parentOf(id) === child.pid,
    );
    expect(pid).toBeDefined();
    const info = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .find((arg) => arg.endsWith('page-info.json'))!;
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
    expect(JSON.parse(stdout)).toMatchObject({ error: 'cancelled', statusCode: 499 });
    expect(processesWith(info)).toEqual([]);
    expect(existsSync(join(info, '..'))).toBe(false);
  }, 60_000);
});
