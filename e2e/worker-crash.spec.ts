import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { CrashOrder } from '../src/worker/protocol';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

const ENDED = 'it ran out of memory or was ended by the browser';
const NEVER_STARTED = 'it did not start within 20 s; the browser may be out of memory';
/** The sentence the page shows when a worker died, as the user reads it. */
const sentence = (engine: string, reason: string) =>
  engine === 'Voice activity detection'
    ? `Voice activity detection stopped (${reason}). It starts again with the next request: your file and options are kept, so you can run it again.`
    : `The transcription engine stopped (${reason}). It has been restarted: your file and options are kept, so you can run it again.`;

/**
 * A worker made to die (through the test build's hook) at each state of a request: the request
 * fails with a clear error, what the user entered is kept, and the next request runs in a new
 * worker. `start` orders are given before the file is chosen (which starts the workers), the
 * others before the request.
 */
const cases: { name: string; order: CrashOrder; reason: string; engine: string }[] = [
  {
    name: 'a transcription worker ended before its first message',
    order: { kind: 'exit', at: 'start', worker: 'transcription' },
    reason: NEVER_STARTED,
    engine: 'The transcription engine',
  },
  {
    name: 'a transcription worker ended while loading models',
    order: { kind: 'exit', at: 'models', worker: 'transcription' },
    reason: ENDED,
    engine: 'The transcription engine',
  },
  {
    name: 'a transcription worker ended while checking the request',
    order: { kind: 'exit', at: 'validate', worker: 'transcription' },
    reason: ENDED,
    engine: 'The transcription engine',
  },
  {
    name: 'a transcription worker ended while decoding',
    order: { kind: 'exit', at: 'decode', worker: 'transcription' },
    reason: ENDED,
    engine: 'The transcription engine',
  },
  {
    name: 'a transcription worker ended while recognising',
    order: { kind: 'exit', at: 'recognise', worker: 'transcription' },
    reason: ENDED,
    engine: 'The transcription engine',
  },
  {
    name: 'a transcription worker that traps while recognising',
    order: { kind: 'trap', at: 'recognise', worker: 'transcription' },
    reason: 'Uncaught RuntimeError: unreachable',
    engine: 'The transcription engine',
  },
  {
    name: 'a speech worker ended before its first message',
    order: { kind: 'exit', at: 'start', worker: 'speech' },
    reason: NEVER_STARTED,
    engine: 'Voice activity detection',
  },
  {
    name: 'a speech worker ended while finding speech',
    order: { kind: 'exit', at: 'vad', worker: 'speech' },
    reason: ENDED,
    engine: 'Voice activity detection',
  },
];

async function crash(page: Page, order: CrashOrder): Promise<void> {
  await page.evaluate((o) => window.murmurTestHooks!.crashWorker(o), order);
}

async function fillForm(app: AppPage, path: string): Promise<void> {
  await app.chooseFile(path);
  await app.chooseBehaviour('manual');
  await app.fill('language', 'english');
  await app.fill('transcription_hint', 'Murmur, Silero');
}

async function expectFormKept(app: AppPage): Promise<void> {
  await expect(app.byId('media.file-name')).toContainText('crash.wav');
  await expect(app.byId('options.transcription_hint')).toHaveValue('Murmur, Silero');
  await expect(app.byId('options.language_behaviour.manual')).toBeChecked();
  await expect(app.byId('options.language')).toHaveValue('english');
}

async function expectResult(app: AppPage): Promise<void> {
  const error = app.byId('job.error');
  await expect(app.byId('result').or(error)).toBeVisible({ timeout: 150_000 });
  await expect(error).toHaveCount(0);
  expect(await app.byId('result.segment-text').count()).toBeGreaterThan(0);
}

test.describe('a worker that dies', () => {
  test.setTimeout(180_000);

  test.beforeEach(async ({ page, baseURL }) => {
    await useLocalModels(page, baseURL!, false);
  });

  const speech = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    return spokenFile(dir, 'crash', [
      { language: 'en', seed: 301, words: 10 },
      { language: 'en', seed: 302, words: 10 },
      { language: 'en', seed: 303, words: 10 },
    ]);
  };

  for (const { name, order, reason, engine } of cases) {
    test(`recovers from ${name}`, async ({ page }, info) => {
      const file = speech(info.outputDir);
      const app = new AppPage(page);
      await app.goto();
      if (order.at === 'start') await crash(page, order);
      await fillForm(app, file.path);
      if (order.at !== 'start') await crash(page, order);
      await app.submit();

      const error = app.byId('job.error');
      await expect(error).toBeVisible({ timeout: 90_000 });
      await expect(app.byId('job.error-message')).toHaveText(sentence(engine, reason));
      await expect(error).toContainText('internal_error');
      await expect(app.byId('result.segment')).toHaveCount(0);
      await expectFormKept(app);

      // The same request again runs in fresh workers.
      await app.submit();
      await expectResult(app);
    });
  }

  test('recovers from a transcription worker ended between requests', async ({ page }, info) => {
    const file = speech(info.outputDir);
    const app = new AppPage(page);
    await app.goto();
    await fillForm(app, file.path);
    await app.submit();
    await expectResult(app);
    const first = await app.byId('result.segment-text').allTextContents();

    await crash(page, { kind: 'exit', at: 'now', worker: 'transcription' });
    // The page notices on its own, with no request waiting.
    await expect
      .poll(() => page.evaluate(() => window.murmurTestHooks!.workerDeaths()), { timeout: 30_000 })
      .toBe(1);
    await expect(app.byId('job.error')).toHaveCount(0);
    await app.submit();
    await expectResult(app);
    expect(await app.byId('result.segment-text').allTextContents()).toEqual(first);
    await expectFormKept(app);
  });
});
