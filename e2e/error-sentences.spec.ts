import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { ERROR_CODES, type ErrorCode } from '../src/core/contract/errors';
import { fixtureResponse } from './fixtures/response';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

const shared = new URL('../../shared/', import.meta.url).pathname;
const jfk = `${shared}media/speech/jfk.wav`;

/** Names of the service's fields: none may reach a sentence the page shows. */
const FIELD_NAMES =
  /\b(audio_url|video_url|language_behaviour|toggle_\w+|diarization_\w+|target_translation_language|webhook_url|output_format)\b|“Media”|“Media link”/;

/**
 * Codes only `murmur serve` answers (its HTTP layer: form parsing, keys, routes, sizes, load):
 * the page never sends an HTTP request for a transcription, so it never shows them.
 */
const SERVER_ONLY: readonly ErrorCode[] = [
  'bad_request',
  'unauthorized',
  'not_found',
  'payload_too_large',
  'too_many_requests',
  'request_timeout',
  'headers_too_large',
];

/**
 * A host of its own origin: media links that answer a web page, an empty file or 404 (all
 * readable by other sites), and one file it does not let other sites read (no CORS header).
 */
async function mediaHost(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const open = { 'access-control-allow-origin': '*' };
    if (request.url === '/talk.html') {
      response.writeHead(200, { ...open, 'content-type': 'text/html' });
      response.end('<!doctype html><title>A talk</title><video src="talk.mp4"></video>');
    } else if (request.url === '/empty.mp3') {
      response.writeHead(200, { ...open, 'content-type': 'audio/mpeg', 'content-length': '0' });
      response.end();
    } else if (request.url === '/private.mp3') {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.end(Buffer.alloc(1024));
    } else {
      response.writeHead(404, { ...open, 'content-type': 'text/plain' });
      response.end('Not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Case {
  code: ErrorCode;
  what: string;
  /** Gives the page its input and starts the request. */
  run: (app: AppPage, page: Page) => Promise<void>;
  /** The sentence, given the media host's origin and the app's. */
  sentence: string | ((media: string, app: string) => string);
}

const CASES: Case[] = [
  {
    code: 'unsupported_media',
    what: 'a text file named as an mp3',
    run: async (app) => {
      await app.chooseBytes('notes.mp3', 'audio/mpeg', Buffer.from('Notes for Monday.\n'));
      await app.submit();
    },
    sentence: '"notes.mp3" is a text file, not audio or video. Give an audio or video file.',
  },
  {
    code: 'unsupported_media',
    what: 'a link to a web page',
    run: async (app) => {
      await app.setUrl(`${origin}/talk.html`);
      await app.submit();
    },
    sentence: (o) =>
      `${o}/talk.html returned a web page, not an audio or video file. Link to the media file itself, or download it and drop it here.`,
  },
  {
    code: 'url_fetch_failed',
    what: 'a link whose server refuses other sites (CORS)',
    run: async (app) => {
      await app.setUrl(`${origin}/private.mp3`);
      await app.submit();
    },
    sentence: (o) =>
      `The browser could not read ${o}/private.mp3: the server at ${o.replace('http://', '')} does not allow other sites to read its files (CORS), or it could not be reached. Download the file and drop it here instead.`,
  },
  {
    code: 'url_fetch_failed',
    what: 'a link that is not found',
    run: async (app) => {
      await app.setUrl(`${origin}/gone.mp3`);
      await app.submit();
    },
    sentence: (o) => `${o}/gone.mp3 could not be fetched: the server answered 404 Not Found.`,
  },
  {
    code: 'undecodable_media',
    what: 'a link that returns an empty file',
    run: async (app) => {
      await app.setUrl(`${origin}/empty.mp3`);
      await app.submit();
    },
    sentence: (o) => `${o}/empty.mp3 returned an empty file (0 bytes).`,
  },
  {
    code: 'invalid_request',
    what: 'a link to a video platform page',
    run: async (app) => {
      await app.setUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
      await app.submit();
    },
    sentence:
      "The link is a YouTube page, not a media file: this page cannot fetch media from other sites, but Murmur's command line (murmur transcribe --audio_url LINK) or a Murmur server can. Here, download the audio or video file and drop it in, or give a direct link to the file.",
  },
  {
    code: 'engine_unavailable',
    what: 'a recognition model the model host does not have',
    run: async (app, page) => {
      // Runs after the test models' settings, on the next load.
      await page.addInitScript(() => {
        const settings = JSON.parse(localStorage.getItem('murmur.settings') ?? '{}');
        localStorage.setItem(
          'murmur.settings',
          JSON.stringify({ ...settings, whisperModel: 'murmur-test/no-such-model' }),
        );
      });
      await app.goto();
      await app.chooseFile(jfk);
      await app.submit();
    },
    sentence: (_, app) =>
      `The recognition model "murmur-test/no-such-model" could not be loaded from ${app}/hub/: the host does not have this model (its files, such as config.json, were not found). Check the model and the model host under Models.`,
  },
  {
    code: 'not_supported',
    what: 'a translation target the translation model cannot write',
    run: async (app) => {
      await app.chooseFile(jfk);
      await app.toggle('toggle_direct_translate');
      await app.fill('target_translation_language', 'latin');
      await app.submit();
    },
    sentence:
      'Translation into Latin is not available with the translation model murmur-test/m2m100-synth: choose another language in “Translate into”, or another translation model under Models.',
  },
];

let origin = '';

test.describe('every error sentence, as the page shows it', () => {
  let host: Server;
  test.beforeAll(async () => {
    const started = await mediaHost();
    host = started.server;
    origin = started.origin;
  });
  test.afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

  test('every error code the page can meet has its sentences here', () => {
    const covered = new Set<ErrorCode>([
      ...CASES.map((c) => c.code),
      ...SERVER_ONLY,
      // Read below: a stopped job, a worker that dies, an empty file in the queue.
      'cancelled',
      'internal_error',
      'invalid_request',
    ]);
    expect([...covered].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  for (const c of CASES) {
    test(`${c.code}: ${c.what}`, async ({ page, baseURL }) => {
      await useLocalModels(page, baseURL!, false);
      const app = new AppPage(page);
      await app.goto();
      await c.run(app, page);
      const shown = app.byId('job.error-message');
      await expect(shown).toBeVisible({ timeout: 60_000 });
      const expected = typeof c.sentence === 'string' ? c.sentence : c.sentence(origin, baseURL!);
      await expect(shown).toHaveText(expected);
      // A command to type names its flags as they are typed; the page's own words name controls.
      const words = ((await shown.textContent()) ?? '').replace(/\(murmur transcribe [^)]*\)/, '');
      expect(words).not.toMatch(FIELD_NAMES);
      await expect(app.byId('job.error')).toContainText(`Error code: ${c.code}.`);
    });
  }

  test('a refused request leaves the transcript on screen as it was', async ({
    page,
    baseURL,
  }, info) => {
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    const saved = info.outputPath('talk.json');
    mkdirSync(info.outputDir, { recursive: true });
    writeFileSync(saved, JSON.stringify(fixtureResponse()));
    await app.openSavedResult(saved);
    await expect(app.byId('result.title')).toHaveText('talk');
    const segments = await app.byId('result.segment').count();
    expect(segments).toBeGreaterThan(0);
    await app.setUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await app.submit();
    await expect(app.byId('job.error-message')).toContainText('The link is a YouTube page', {
      timeout: 60_000,
    });
    await expect(app.byId('result.title')).toHaveText('talk');
    await expect(app.byId('result.segment')).toHaveCount(segments);
  });

  test('cancelled: a job stopped by its Cancel button', async ({ page, baseURL }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'long', [
      { language: 'en', seed: 321, words: 12 },
      { language: 'en', seed: 322, words: 12 },
    ]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.submit();
    await expect(app.byId('job.progress')).toBeVisible();
    await app.byId('form.cancel').click();
    await expect(app.byId('job.cancelled')).toHaveText(
      'Cancelled. Your file and options are still here.',
    );
  });

  test('internal_error: a worker that dies', async ({ page, baseURL }, info) => {
    test.setTimeout(120_000);
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'dies', [{ language: 'en', seed: 301, words: 12 }]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.chooseBehaviour('manual');
    await app.fill('language', 'english');
    // The worker ends itself once recognition is under way (a test build's hook).
    await page.evaluate(() =>
      window.murmurTestHooks!.crashWorker({
        kind: 'exit',
        at: 'recognise',
        worker: 'transcription',
      }),
    );
    await app.submit();
    await expect(app.byId('job.error-message')).toHaveText(
      'The transcription engine stopped (it ran out of memory or was ended by the browser). It has been restarted: your file and options are kept, so you can run it again.',
      { timeout: 60_000 },
    );
  });

  test('invalid_request: an empty file in the queue, and a text file beside it', async ({
    page,
    baseURL,
  }) => {
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.byId('media.file').setInputFiles([
      { name: 'first.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('Notes for Monday.\n') },
      { name: 'second.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(0) },
    ]);
    await app.submit();
    const errors = app.byId('batch.item-error');
    await expect(errors).toHaveText(
      [
        '"first.mp3" is a text file, not audio or video. Give an audio or video file.',
        'The file “second.wav” is empty.',
      ],
      { timeout: 60_000 },
    );
  });
});
