import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { renderSrt } from '../src/core/format/srt';
import { renderVtt } from '../src/core/format/vtt';
import { fixtureResponse } from './fixtures/response';
import { AppPage } from './pages/app-page';

test('shows a saved result and downloads its subtitles', async ({ page }, info) => {
  const response = fixtureResponse();
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('jfk.json');
  writeFileSync(saved, JSON.stringify(response));

  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);

  await expect(app.byId('result.title')).toHaveText('jfk');
  const segments = app.byId('result.segment');
  await expect(segments).toHaveCount(3);
  await expect(segments.first()).toContainText('And so, my fellow Americans,');
  await expect(app.byId('result.summary')).toContainText('Words');
  expect(await app.byId('result.prediction').textContent()).toBe(response.prediction);

  const segmentsRaw = response.prediction_raw.transcription;
  const srt = await app.download('srt');
  expect(srt.suggestedFilename()).toBe('jfk.srt');
  expect(readFileSync(await srt.path(), 'utf8')).toBe(renderSrt(segmentsRaw));
  const vtt = await app.download('vtt');
  expect(readFileSync(await vtt.path(), 'utf8')).toBe(renderVtt(segmentsRaw));
  const json = await app.download('json');
  expect(JSON.parse(readFileSync(await json.path(), 'utf8'))).toEqual(response);

  await page.screenshot({ path: 'test-results/screens/result.png', fullPage: true });
});

test('the summary names the language, gives the length as the player does, and a disabled Undo looks disabled', async ({
  page,
}, info) => {
  const response = fixtureResponse();
  response.prediction_raw.metadata.provided_file_metadata.duration = 11.98;
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('talk.json');
  writeFileSync(saved, JSON.stringify(response));
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);
  const item = (label: string) =>
    app.byId('result.summary').locator('div', { has: page.getByText(label, { exact: true }) });
  await expect(item('Duration').locator('dd')).toHaveText('0:12');
  await expect(item('Languages').locator('dd')).toHaveText('English');

  // Nothing to undo yet: Undo and Redo look unavailable beside the buttons that are.
  const opacity = (testId: string) =>
    app.byId(testId).evaluate((e) => Number(getComputedStyle(e).opacity));
  await expect(app.byId('editor.undo')).toBeDisabled();
  expect(await opacity('editor.undo')).toBeLessThan(0.7);
  expect(await opacity('editor.redo')).toBeLessThan(0.7);
  expect(await opacity('download.srt')).toBe(1);
});

test('a translated result names the spoken language, and the translation apart', async ({
  page,
}, info) => {
  const response = fixtureResponse();
  for (const segment of response.prediction_raw.transcription) {
    segment.source_transcription = segment.transcription;
    segment.source_language = 'en';
    segment.language = 'fr';
  }
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('translated.json');
  writeFileSync(saved, JSON.stringify(response));
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);
  const item = (label: string) =>
    app.byId('result.summary').locator('div', { has: page.getByText(label, { exact: true }) });
  await expect(item('Languages').locator('dd')).toHaveText('English');
  await expect(item('Translated into').locator('dd')).toHaveText('French');
  await app.byId('result.summary').screenshot({ path: '/tmp/app-summary-translated.png' });
});

test('explains a file that is not a saved result', async ({ page }, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const bad = info.outputPath('notes.json');
  writeFileSync(bad, '{"hello": 1}');
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(bad);
  await expect(app.byId('result.open-error')).toContainText('not a transcription result');
});
