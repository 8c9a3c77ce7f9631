import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { TEST_TRANSLATOR, TEST_WHISPER } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test('a shared link sets the model host and the model, and they stay chosen', async ({
  page,
  baseURL,
}, info) => {
  test.setTimeout(120_000);
  mkdirSync(info.outputDir, { recursive: true });
  const speech = spokenFile(info.outputDir, 'linked', [{ language: 'en', seed: 601, words: 6 }]);
  const host = `${baseURL}/hub/`;
  const link = new URLSearchParams({
    models: host,
    model: TEST_WHISPER,
    translation: TEST_TRANSLATOR,
  });
  await page.goto(`/?${link}`);
  const app = new AppPage(page);
  await app.byId('form.submit').waitFor();
  await page.getByText('Models', { exact: true }).click();
  await expect(app.byId('settings.model-host')).toHaveValue(host);
  await expect(app.byId('settings.model-id')).toHaveValue(TEST_WHISPER);

  // The models come from the linked host: the default hub cannot be reached here.
  await app.chooseFile(speech.path);
  await app.submit();
  await app.expectResult(100_000);

  await page.goto('/');
  const saved = JSON.parse(
    (await page.evaluate(() => localStorage.getItem('murmur.settings'))) ?? '{}',
  ) as Record<string, unknown>;
  expect(saved).toMatchObject({
    modelHost: host,
    whisperModel: TEST_WHISPER,
    translationModel: TEST_TRANSLATOR,
  });
});
