import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { seriousViolations } from './fixtures/axe';
import { fixtureResponse } from './fixtures/response';
import { AppPage } from './pages/app-page';

test('find and replace in a saved result: one match, then all as one undoable step', async ({
  page,
}, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('jfk.json');
  writeFileSync(saved, JSON.stringify(fixtureResponse()));
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);
  const segments = app.byId('result.segment-text');
  await expect(segments).toHaveText([
    'And so, my fellow Americans,',
    'ask not what your country can do for you,',
    'ask what you can do for your country.',
  ]);

  await app.byId('find.open').click();
  await expect(app.byId('find.open')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByLabel('Find', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Replace with')).toBeVisible();
  await expect(app.byId('find.count')).toHaveText('');

  // Parts of words count unless whole words are asked for.
  await app.byId('find.query').fill('you');
  await expect(app.byId('find.count')).toHaveText('4 matches');
  await page.getByLabel('Whole words').check();
  await expect(app.byId('find.count')).toHaveText('2 matches');
  await page.getByLabel('Match case').check();
  await app.byId('find.query').fill('You');
  await expect(app.byId('find.count')).toHaveText('No matches');
  await expect(app.byId('find.replace-all')).toBeDisabled();
  await app.byId('find.query').fill('you');
  await expect(app.byId('find.count')).toHaveText('2 matches');

  // Next shows each match in turn, highlighted; Previous goes back round.
  await app.byId('find.next').click();
  const found = page.locator('[data-testid="result.word"][data-found="true"]');
  await expect(found).toHaveText(['you,']);
  await app.byId('find.next').click();
  await expect(found).toHaveText(['you']);
  await expect(found).toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);
  await app.byId('find.previous').click();
  await expect(found).toHaveText(['you,']);

  // Replace: the match shown, and the next one is shown in its place.
  await app.byId('find.replacement').fill('thee');
  await app.byId('find.replace').click();
  await expect(segments.nth(1)).toHaveText('ask not what your country can do for thee,');
  await expect(segments.nth(2)).toHaveText('ask what you can do for your country.');
  await expect(app.byId('find.count')).toHaveText('1 match');
  await expect(found).toHaveText(['you']);

  // Replace all, then one undo brings every match back.
  await app.byId('find.query').fill('country');
  await expect(app.byId('find.count')).toHaveText('2 matches');
  await app.byId('find.replacement').fill('nation');
  await app.byId('find.replace-all').click();
  await expect(app.byId('find.count')).toHaveText('No matches');
  await expect(segments).toHaveText([
    'And so, my fellow Americans,',
    'ask not what your nation can do for thee,',
    'ask what you can do for your nation.',
  ]);
  await page.keyboard.press('Control+z');
  await expect(segments).toHaveText([
    'And so, my fellow Americans,',
    'ask not what your country can do for thee,',
    'ask what you can do for your country.',
  ]);
  await expect(app.byId('find.count')).toHaveText('2 matches');

  await page.keyboard.press('Control+Shift+z');
  await expect(segments.nth(2)).toHaveText('ask what you can do for your nation.');
  const srt = readFileSync(await (await app.download('srt')).path(), 'utf8');
  expect(srt).toContain('ask not what your nation can do for thee,');
  expect(srt).toContain('ask what you can do for your nation.');
  expect(srt).not.toContain('country');
});

test('terms kept in the settings are the vocabulary hint of the next request after a reload', async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await expect(app.byId('options.transcription_hint')).toHaveValue('');
  await app.byId('options.terms').fill('Murmur\n  WebGPU \n\nDr. Okonkwo');
  await expect(app.byId('options.transcription_hint')).toHaveValue('Murmur, WebGPU, Dr. Okonkwo');

  await page.reload();
  await app.byId('form.submit').waitFor();
  await expect(app.byId('options.terms')).toHaveValue('Murmur\n  WebGPU \n\nDr. Okonkwo');
  await expect(app.byId('options.transcription_hint')).toHaveValue('Murmur, WebGPU, Dr. Okonkwo');

  // A hint typed for this request is the user's: new terms leave it alone.
  await app.fill('transcription_hint', 'ComfyUI');
  await app.byId('options.terms').fill('Murmur');
  await expect(app.byId('options.transcription_hint')).toHaveValue('ComfyUI');

  // Terms too long for the hint are refused, naming the field, and not kept.
  await app.byId('options.terms').fill(Array.from({ length: 60 }, (_, i) => `term${i}`).join('\n'));
  await expect(app.byId('options.terms-error')).toHaveText(
    'Terms are too long for the vocabulary hint (transcription_hint): joined they make 468 characters, and at most 400 are kept. Remove some terms.',
  );
  await expect(app.byId('options.terms')).toHaveAttribute('aria-invalid', 'true');
  expect(await seriousViolations(page)).toEqual([]);
  await page.reload();
  await app.byId('form.submit').waitFor();
  await expect(app.byId('options.terms')).toHaveValue('Murmur');
  await expect(app.byId('options.transcription_hint')).toHaveValue('Murmur');
  await expect(app.byId('options.terms-error')).toHaveCount(0);
});
