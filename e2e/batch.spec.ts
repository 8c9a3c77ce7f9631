import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { seriousViolations } from './fixtures/axe';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test.describe('a batch of files', () => {
  test.setTimeout(240_000);

  test('three files chosen at once: one queue, progress per file, one cancelled', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const files = ['first', 'second', 'third'].map((name, i) =>
      spokenFile(info.outputDir, name, [{ language: 'en', seed: 501 + i, words: 7 }]),
    );
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.byId('media.file').setInputFiles(files.map((f) => f.path));
    await expect(app.byId('media.queued')).toHaveText('3 files in the queue');
    await expect(app.byId('batch.item-name')).toHaveText(['first.wav', 'second.wav', 'third.wav']);
    await expect(app.byId('form.submit')).toHaveText('Transcribe 3 files');
    // The same options for every file.
    await app.byId('options.output_format').selectOption('srt');
    await app.submit();

    const items = app.byId('batch.item');
    // The first runs with its own progress while the others wait.
    await expect(items.nth(0)).toHaveAttribute('data-status', 'running');
    await expect(items.nth(0).getByTestId('batch.item-progress')).toBeVisible();
    await expect(items.nth(2).getByTestId('batch.item-status')).toHaveText('Waiting');
    await items.nth(2).getByTestId('batch.item-cancel').click();
    await expect(items.nth(2)).toHaveAttribute('data-status', 'cancelled');

    await expect(items.nth(1)).toHaveAttribute('data-status', /running|done/, {
      timeout: 120_000,
    });
    await expect(items.nth(0)).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await expect(items.nth(1)).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await expect(items.nth(2)).toHaveAttribute('data-status', 'cancelled');
    await expect(app.byId('batch.summary')).toContainText('2 of 3 done');
    await page.screenshot({ path: 'test-results/screens/batch.png', fullPage: true });

    // The first result is shown; the second opens from the queue, with its player, in SRT.
    await expect(app.byId('result.title')).toHaveText('first');
    await items.nth(1).getByTestId('batch.item-open').click();
    await expect(app.byId('result.title')).toHaveText('second');
    await expect(app.byId('result.player')).toBeVisible();
    expect(await app.byId('result.segment-text').count()).toBeGreaterThan(0);
    await expect(app.byId('result.prediction')).toContainText('-->');
    // Both are in the history; the cancelled one is not.
    await expect(app.byId('history.item-title')).toHaveText(['second', 'first']);

    // The queue and the history read well and pass the accessibility rules on a phone too.
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/screens/batch-phone.png', fullPage: true });
  });

  test('cancel all stops the running file and everything queued', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const files = ['one', 'two'].map((name, i) =>
      spokenFile(info.outputDir, name, [{ language: 'en', seed: 511 + i, words: 7 }]),
    );
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.byId('media.file').setInputFiles(files.map((f) => f.path));
    await app.submit();
    await expect(app.byId('batch.item').nth(0)).toHaveAttribute('data-status', 'running');
    await app.byId('batch.cancel-all').click();
    await expect(app.byId('batch.item').nth(0)).toHaveAttribute('data-status', 'cancelled');
    await expect(app.byId('batch.item').nth(1)).toHaveAttribute('data-status', 'cancelled');
    await expect(app.byId('history.empty')).toBeVisible();
    await expect(app.byId('form.submit')).toBeEnabled();
  });

  test('dropping several files queues them all', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.byId('media.dropzone').evaluate((zone) => {
      const files = new DataTransfer();
      for (const name of ['a.wav', 'b.mp3']) files.items.add(new File(['x'], name));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true }));
    });
    await expect(app.byId('batch.item-name')).toHaveText(['a.wav', 'b.mp3']);
    await expect(app.byId('media.queued')).toHaveText('2 files in the queue');
    await app.byId('batch.clear').click();
    await expect(app.byId('batch')).toHaveCount(0);
    await expect(app.byId('form.submit')).toHaveText('Transcribe');
  });
});
