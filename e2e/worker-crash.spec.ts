import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/**
 * A worker that dies mid-request (made to, through the test build's hook): the request fails
 * with a clear error, what the user entered is kept, and the next request runs in a new worker.
 */
test.describe('a transcription worker that dies', () => {
  test.setTimeout(180_000);

  for (const [kind, reason] of [
    ['trap', /stopped \(.*RuntimeError: unreachable\)/],
    ['exit', /stopped \(it ran out of memory or was ended by the browser\)/],
  ] as const) {
    test(`recovers from a worker that ${kind === 'trap' ? 'traps' : 'is ended'}`, async ({
      page,
      baseURL,
    }, info) => {
      mkdirSync(info.outputDir, { recursive: true });
      const speech = spokenFile(info.outputDir, 'crash', [
        { language: 'en', seed: 301, words: 10 },
        { language: 'en', seed: 302, words: 10 },
        { language: 'en', seed: 303, words: 10 },
      ]);
      await useLocalModels(page, baseURL!, false);
      const app = new AppPage(page);
      await app.goto();
      await app.chooseFile(speech.path);
      await app.chooseBehaviour('manual');
      await app.fill('language', 'english');
      await app.fill('transcription_hint', 'Murmur, Silero');
      await app.submit();
      await expect(app.byId('job.progress')).toBeVisible();
      await page.evaluate((k) => window.murmurTestHooks!.crashWorker(k), kind);

      const error = app.byId('job.error');
      await expect(error).toBeVisible({ timeout: 60_000 });
      await expect(error).toContainText(reason);
      await expect(error).toContainText('internal_error');
      await expect(error).toContainText('restarted');
      await expect(app.byId('result.segment')).toHaveCount(0);
      // Everything entered is still there.
      await expect(app.byId('media.file-name')).toContainText('crash.wav');
      await expect(app.byId('options.transcription_hint')).toHaveValue('Murmur, Silero');
      await expect(app.byId('options.language_behaviour.manual')).toBeChecked();
      await expect(app.byId('options.language')).toHaveValue('english');

      // The same request again runs in a fresh worker.
      await app.submit();
      await expect(app.byId('result').or(error)).toBeVisible({ timeout: 150_000 });
      await expect(error).toHaveCount(0);
      expect(await app.byId('result.segment-text').count()).toBeGreaterThan(0);
    });
  }
});
