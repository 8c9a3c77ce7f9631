import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { TEST_TRANSLATOR, TEST_WHISPER, useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test.describe('the model manager', () => {
  test.setTimeout(120_000);

  test('shows each model with its size, downloads ahead with progress, and deletes', async ({
    page,
    baseURL,
  }) => {
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await page.getByText('Models', { exact: true }).click();
    await expect(app.byId('models.recognition')).toContainText(TEST_WHISPER);
    // A model the catalogue has no size for: the size its host gives for its files.
    const recognitionSize = app.byId('models.recognition-size');
    await expect(recognitionSize).toHaveText(/^\d+(\.\d)? MB$/);
    const hostSize = await recognitionSize.innerText();
    await expect(app.byId('models.translation')).toContainText(TEST_TRANSLATOR);
    await expect(app.byId('models.translation')).toContainText('about 2.0 MB');
    await expect(app.byId('models.vad')).toContainText('onnx-community/silero-vad');
    for (const role of ['recognition', 'vad', 'translation']) {
      await expect(app.byId(`models.${role}-status`)).toHaveText('Not downloaded');
    }
    await expect(app.byId('models.storage')).toContainText(
      /This site stores .* of the .* the browser allows it/,
    );

    await app.byId('models.recognition-download').click();
    await expect(app.byId('models.recognition-progress')).toBeVisible();
    await expect(app.byId('models.recognition-status')).toContainText('In this browser', {
      timeout: 60_000,
    });
    // What was downloaded weighs what the host said.
    await expect(app.byId('models.recognition-status')).toHaveText(`In this browser · ${hostSize}`);
    // Sizes agree everywhere, and what is here is not counted as to fetch.
    await expect(recognitionSize).toHaveText(hostSize);
    await expect(app.byId('offline.plan')).toContainText(
      `Already in this browser: the recognition model (${hostSize})`,
    );
    await expect(app.byId('offline.plan')).not.toContainText('the recognition model (size');
    await app.byId('models.recognition').screenshot({ path: '/tmp/app-model-size.png' });
    // The worker loads the small voice activity model whenever it starts.
    await expect(app.byId('models.vad-status')).toContainText('In this browser');
    await app.byId('models.translation-download').click();
    await expect(app.byId('models.translation-status')).toContainText('In this browser', {
      timeout: 60_000,
    });
    // Kept across a reload: the files are in the browser's cache, not only in memory.
    await page.reload();
    await page.getByText('Models', { exact: true }).click();
    await expect(app.byId('models.recognition-status')).toContainText('In this browser');
    await expect(app.byId('models.translation-status')).toContainText('In this browser');
    await page.screenshot({ path: 'test-results/screens/models.png', fullPage: true });

    await app.byId('models.recognition-delete').click();
    await expect(app.byId('models.recognition-status')).toHaveText('Not downloaded');
    await expect(app.byId('models.translation-status')).toContainText('In this browser');
    expect(
      await page.evaluate(
        async () =>
          (await (await caches.open('transformers-cache')).keys()).filter((r) =>
            r.url.includes('whisper-synth'),
          ).length,
      ),
    ).toBe(0);
  });

  test('a model the host does not have is named, with the host and where to change it', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'missing', [{ language: 'en', seed: 701, words: 5 }]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await page.getByText('Models', { exact: true }).click();
    await app.byId('settings.model-id').fill('murmur-test/no-such-model');
    await app.chooseFile(speech.path);
    await app.submit();
    const error = app.byId('job.error');
    await expect(error).toContainText('recognition model "murmur-test/no-such-model"', {
      timeout: 60_000,
    });
    await expect(error).toContainText(`${baseURL}/hub/`);
    await expect(error).toContainText('the host does not have this model');
    await expect(error).toContainText('under Models');
    await expect(error).not.toContainText('tokenizer_class');
  });

  test('a full storage is explained, and a model that would not fit is not downloaded', async ({
    page,
    baseURL,
  }) => {
    await useLocalModels(page, baseURL!, false);
    // A browser that allows this site 100 MB, of which 99.5 MB are used.
    await page.addInitScript(() => {
      navigator.storage.estimate = () => Promise.resolve({ usage: 99_500_000, quota: 100_000_000 });
    });
    const app = new AppPage(page);
    await app.goto();
    await page.getByText('Models', { exact: true }).click();
    await expect(app.byId('models.storage')).toContainText('99.5 MB of the 100 MB');
    await expect(app.byId('models.full')).toContainText('Storage is nearly full');
    await app.byId('models.translation-download').click();
    await expect(app.byId('models.translation-error')).toContainText('Not enough room');
    await expect(app.byId('models.translation-error')).toContainText('2.0 MB');
    await expect(app.byId('models.translation-status')).toHaveText('Not downloaded');
  });
});
