import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { renderVtt } from '../src/core/format/vtt';
import { fixtureResponse } from './fixtures/response';
import { AppPage } from './pages/app-page';

/**
 * The page's part of the catalogue of odd inputs (the rest is src/hosts/node/odd-inputs.test.ts):
 * a file name and a transcript that hold HTML and script are shown as text, never run, and
 * escaped in the VTT download.
 */
const MARKUP = '<img src=x onerror="window.injected=1"><script>window.injected=2</script>';
const NAME = '<img src=x onerror=window.injected=3> & <b>talk';

test('shows HTML in a file name and a transcript as text, and escapes it in VTT', async ({
  page,
}, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const response = fixtureResponse();
  const first = response.prediction_raw.transcription[0]!;
  first.transcription = ` ${MARKUP}`;
  first.words = [{ ...first.words[0]!, word: ` ${MARKUP}` }];
  const saved = info.outputPath(`${NAME}.json`);
  writeFileSync(saved, JSON.stringify(response));

  const app = new AppPage(page);
  await app.goto();
  // A media file with such a name shows its name as it is.
  await app.chooseBytes(`${NAME}.wav`, 'audio/wav', Buffer.from('RIFF'));
  await expect(app.byId('media.file-name')).toContainText(`${NAME}.wav`);

  await app.openSavedResult(saved);
  await expect(app.byId('result.title')).toHaveText(NAME);
  await expect(app.byId('result.segment-text').first()).toHaveText(MARKUP);
  // Nothing of it became an element or ran.
  const injected = await page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"]').length,
    scripts: [...document.scripts].filter((s) => s.text.includes('injected')).length,
    ran: (window as { injected?: number }).injected ?? null,
  }));
  expect(injected).toEqual({ images: 0, scripts: 0, ran: null });

  const vtt = readFileSync(await (await app.download('vtt')).path(), 'utf8');
  expect(vtt).toBe(renderVtt(response.prediction_raw.transcription));
  expect(vtt).toContain('&lt;script&gt;window.injected=2&lt;/script&gt;');
  expect(vtt).not.toContain('<script>');
  expect(vtt).not.toContain('<img');
});
