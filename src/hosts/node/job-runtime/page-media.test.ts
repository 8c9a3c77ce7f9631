import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../core/contract/errors';
import { processesWith, startPageHost } from '../../../../tools/testing/server/page-host';
import { guardedResolve, type ProxyResolve } from '../page-proxy';
import { fetchPageMedia, type PageFetch } from './page-media';

const recording = fileURLToPath(
  new URL('../../../../../shared/media/speech/jfk.wav', import.meta.url),
);
const PUBLIC_NAME = 'pages.example';

let host: Awaited<ReturnType<typeof startPageHost>>;
let named: Awaited<ReturnType<typeof startPageHost>>;
let dir = '';

/**
 * The guard as a server runs it, except that the test's own page host, under a name of its own,
 * counts as public: its pages are then read with the guard on, and any other loopback address
 * they lead to is refused as it would be on a server.
 */
const guardedButPages: ProxyResolve = (name) =>
  name === PUBLIC_NAME ? Promise.resolve('127.0.0.1') : guardedResolve(false)(name);

function settings(over: Partial<PageFetch> = {}): PageFetch {
  return {
    binary: '/usr/bin/yt-dlp',
    version: '2023.03.04',
    field: 'audio_url',
    dir,
    video: false,
    maxBytes: 50 * 1024 * 1024,
    maxSeconds: 3600,
    idleSeconds: 3,
    totalSeconds: 60,
    resolve: guardedResolve(true),
    ...over,
  };
}

async function refusal(url: string, over: Partial<PageFetch> = {}): Promise<ServiceError> {
  const thrown = await fetchPageMedia(url, settings(over), new AbortController().signal).then(
    () => null,
    (e: unknown) => e,
  );
  if (thrown instanceof ServiceError) return thrown;
  throw new Error(`Expected a refusal of ${url}, got ${String(thrown)}`);
}

beforeAll(async () => {
  host = await startPageHost(recording);
  named = await startPageHost(recording, { host: PUBLIC_NAME });
});
afterAll(async () => {
  await host.close();
  await named.close();
});
beforeEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'murmur-read-test-'));
});

describe('the media of a web page, read with yt-dlp', () => {
  it("gives the recording an og:video tag names, byte for byte, with the page's title", async () => {
    const read = await fetchPageMedia(
      host.url('/og-video.html'),
      settings(),
      new AbortController().signal,
    );
    expect(read.title).toBe('A talk on a page');
    expect(read.file.name).toBe('page-media.wav');
    expect(read.file.type).toBe('audio/wav');
    expect(readFileSync(read.file.path).equals(readFileSync(recording))).toBe(true);
    // Only the media is left in the request's folder.
    expect(readdirSync(dir)).toEqual(['page-media.wav']);
  });

  it('gives the recording of an <audio> element', async () => {
    const read = await fetchPageMedia(
      host.url('/audio.html'),
      settings(),
      new AbortController().signal,
    );
    expect(readFileSync(read.file.path).equals(readFileSync(recording))).toBe(true);
  });

  it('reads only the first of the recordings a page holds', async () => {
    host.requests.length = 0;
    const read = await fetchPageMedia(
      host.url('/two.html'),
      settings(),
      new AbortController().signal,
    );
    expect(readFileSync(read.file.path).equals(readFileSync(recording))).toBe(true);
    expect(host.requests).not.toContain('GET /big.wav');
    expect(readdirSync(dir)).toEqual(['page-media.wav']);
  });

  it('refuses a page with no media with 415 and a sentence', async () => {
    const error = await refusal(host.url('/no-media.html'));
    expect(error.code).toBe('unsupported_media');
    expect(error.message).toBe(
      'The page at audio_url holds no media yt-dlp can read. Link to the media file itself.',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses media the page says is too long with 413, before fetching it', async () => {
    const error = await refusal(host.url('/long.html'));
    expect(error.status).toBe(413);
    expect(error.message).toBe(
      'The media on the page at audio_url is longer than this service accepts: it accepts media of up to 60 min, and this holds 180 min.',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses media larger than the limit with 413 while fetching it, and removes what came', async () => {
    const error = await refusal(host.url('/big.html'), { maxBytes: 1024 * 1024 });
    expect(error.status).toBe(413);
    expect(error.message).toBe(
      'The media at audio_url is larger than this service accepts (1 MB).',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives up a page that never ends once its server sends nothing for the idle time', async () => {
    const error = await refusal(host.url('/endless.html'), { idleSeconds: 1 });
    expect(error.code).toBe('url_fetch_failed');
    expect(error.message).toBe(
      'The media at audio_url could not be fetched: its server sent nothing for 1 s.',
    );
  });

  it('gives up a read that takes longer than the total time, and removes what came', async () => {
    const error = await refusal(host.url('/slow.html'), { totalSeconds: 2 });
    expect(error.code).toBe('url_fetch_failed');
    expect(error.message).toBe(
      'The media at audio_url could not be fetched: it took longer than 2 s in all.',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says what to install where yt-dlp is not there', async () => {
    const error = await refusal(host.url('/og-video.html'), { binary: join(dir, 'no-yt-dlp') });
    expect(error.status).toBe(501);
    const message =
      'audio_url is a web page: media is read from web pages with yt-dlp, which is not installed here. Install yt-dlp (or name it with --yt-dlp PATH), or link to the media file itself.';
    expect(error.message).toBe(message);
    expect(error.problems).toEqual([{ field: 'audio_url', message }]);
  });
});

describe("the address guard on yt-dlp's connections", () => {
  it('reads a page on an address the guard lets through', async () => {
    const read = await fetchPageMedia(
      named.url('/og-video.html'),
      settings({ resolve: guardedButPages }),
      new AbortController().signal,
    );
    expect(read.title).toBe('A talk on a page');
  });

  it('refuses, at the proxy, media that redirects to a loopback address', async () => {
    named.requests.length = 0;
    const error = await refusal(named.url('/private.html'), { resolve: guardedButPages });
    const message = `audio_url leads to "http://127.0.0.1:${named.port}/recording.wav", which is not a public address (loopback, private or reserved addresses are not fetched).`;
    expect(error.status).toBe(422);
    expect(error.message).toBe(message);
    expect(error.problems).toEqual([{ field: 'audio_url', message }]);
    // yt-dlp followed the redirect as far as the proxy, which never connected to it.
    expect(named.requests).toEqual(['GET /private.html', 'GET /to-private.wav']);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a read that is cancelled', () => {
  it('ends yt-dlp and leaves no file', async () => {
    const url = host.url('/slow.html');
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    // An earlier test's read of the same recording must not count as this one's.
    host.requests.length = 0;
    const reading = fetchPageMedia(url, settings(), controller.signal).catch((e: unknown) => e);
    for (
      let i = 0;
      i < 1200 && (!host.requests.includes('GET /slow.wav') || processesWith(dir).length === 0);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // The run that downloads names the request's folder on its command line.
    expect(processesWith(dir).length).toBeGreaterThan(0);
    controller.abort(reason);
    expect(await reading).toBe(reason);
    expect(processesWith(dir)).toEqual([]);
    expect(processesWith(url)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
