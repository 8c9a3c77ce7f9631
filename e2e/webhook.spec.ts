import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { startWebhookReceiver } from './fixtures/webhook-receiver';
import { AppPage } from './pages/app-page';

test.describe('webhook delivery from the page', () => {
  test.setTimeout(180_000);

  test('delivers to a receiver that allows the page, and explains one that does not', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'hook', [{ language: 'en', seed: 131, words: 7 }]);
    const open = await startWebhookReceiver(true);
    const closed = await startWebhookReceiver(false);
    try {
      await useLocalModels(page, baseURL!);
      const app = new AppPage(page);
      await app.goto();
      await app.chooseFile(speech.path);
      await app.byId('options.output_format').selectOption('srt');
      await app.fill('webhook_url', open.url);
      await app.submit();

      const status = app.byId('result.webhook');
      await expect(status).toHaveAttribute('data-state', 'delivered', { timeout: 150_000 });
      await expect(status).toContainText('Delivered to the webhook (answer 200)');
      expect(open.posts).toHaveLength(1);
      const delivered = JSON.parse(open.posts[0]!) as {
        request_id: string;
        payload: { prediction: string; prediction_raw: { transcription: unknown[] } };
      };
      expect(delivered.request_id).toMatch(/^M-[0-9a-f]{8}$/);
      expect(delivered.payload.prediction).toBe(await app.byId('result.prediction').textContent());
      expect(delivered.payload.prediction_raw.transcription.length).toBeGreaterThan(0);

      // The same request to a receiver without CORS: the transcript stays, the refusal is told.
      await app.fill('webhook_url', closed.url);
      await app.submit();
      await expect(status).toHaveAttribute('data-state', 'retrying', { timeout: 150_000 });
      await expect(status).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
      await expect(status).toContainText('Not delivered to the webhook after 3 tries');
      await expect(status).toContainText('CORS preflight');
      await expect(status).toContainText('Access-Control-Allow-Origin');
      await expect(app.byId('result')).toBeVisible();
      await expect(app.byId('job.error')).toHaveCount(0);
      expect(closed.posts).toHaveLength(0);
      expect(closed.preflights()).toBeGreaterThan(0);
      await page.screenshot({ path: 'test-results/screens/webhook-failed.png', fullPage: true });
    } finally {
      await open.close();
      await closed.close();
    }
  });
});
