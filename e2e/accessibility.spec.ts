import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { seriousViolations } from './fixtures/axe';
import { fixtureResponse } from './fixtures/response';
import { spokenFile } from './fixtures/speech-files';
import { AppPage } from './pages/app-page';

const VIEWPORTS = [
  ['laptop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** The fixture result with a long compound word, as translations into German give. */
function withLongWord() {
  const response = fixtureResponse();
  const segment = response.prediction_raw.transcription[1]!;
  const long = 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller';
  segment.words[0]!.word = ` ${long}`;
  segment.transcription = ` ${segment.words.map((w) => w.word.trim()).join(' ')}`;
  return response;
}

for (const scheme of ['light', 'dark'] as const) {
  for (const [name, viewport] of VIEWPORTS) {
    test(`every screen passes axe-core on a ${name}, ${scheme} theme`, async ({ page }, info) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(viewport);
      mkdirSync(info.outputDir, { recursive: true });
      const app = new AppPage(page);
      await app.goto();
      expect(await seriousViolations(page), 'start').toEqual([]);

      // The form after a rejected submit, with the options that reveal more fields.
      await app.chooseBehaviour('manual');
      await app.toggle('toggle_direct_translate');
      await app.submit();
      await expect(app.byId('form.problems')).toBeVisible();
      expect(await seriousViolations(page), 'form problems').toEqual([]);

      // A refused request: the job error.
      const speech = spokenFile(info.outputDir, 'hello', [{ language: 'en', seed: 7, words: 4 }]);
      await page.reload();
      await app.chooseFile(speech.path);
      // Latin is a valid target the default translation model cannot write: refused at once.
      await app.toggle('toggle_direct_translate');
      await app.fill('target_translation_language', 'latin');
      await app.submit();
      await expect(app.byId('job.error')).toBeVisible({ timeout: 60_000 });
      expect(await seriousViolations(page), 'job error').toEqual([]);

      // The result and its editor, with every panel open and a word being corrected.
      const saved = info.outputPath('talk.json');
      writeFileSync(saved, JSON.stringify(withLongWord()));
      await app.openSavedResult(saved);
      await expect(app.byId('result')).toBeVisible();
      for (const panel of ['editor.shortcuts', 'cues.limits']) {
        await app.byId(panel).locator('summary').click();
      }
      await page.locator('details:has([data-testid="result.prediction"]) summary').click();
      const word = app.byId('result.word').nth(2);
      await word.click();
      expect(await seriousViolations(page), 'editor').toEqual([]);
      await app.byId('result.segments').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screens/editor-${name}-${scheme}.png` });
      await page.keyboard.press('F2');
      await expect(app.byId('editor.word-input')).toBeFocused();
      expect(await seriousViolations(page), 'word correction').toEqual([]);
      await page.keyboard.press('Escape');
      await app.byId('editor.edit-text').first().click();
      expect(await seriousViolations(page), 'segment text').toEqual([]);

      // Nothing is wider than the screen, long words included.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);
    });
  }
}

test('the editor works from the keyboard alone', async ({ page }, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('talk.json');
  writeFileSync(saved, JSON.stringify(fixtureResponse()));
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);
  const first = app.byId('result.segment').first();
  // From the speaker box, Tab reaches the segment's words (one stop), the arrows move.
  await first.getByTestId('editor.speaker').focus();
  await page.keyboard.press('Tab');
  await expect(first.getByTestId('result.word').first()).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const third = first.getByTestId('result.word').nth(2);
  await expect(third).toBeFocused();
  await expect(third).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('F2');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('our');
  await page.keyboard.press('Enter');
  await expect(first.getByTestId('result.segment-text')).toContainText('And so, our fellow');
  await expect(third).toBeFocused();
  // On to the segment's corrections: split before the chosen word.
  const split = first.getByTestId('editor.split');
  for (let i = 0; i < 4 && !(await split.evaluate((e) => e === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(split).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(app.byId('result.segment')).toHaveCount(4);
  await expect(app.byId('result.segment').nth(1)).toContainText('our fellow Americans,');
  // The speaker box takes a name with the keyboard too.
  await app.byId('editor.speaker').nth(1).focus();
  await page.keyboard.type('Ana');
  await page.keyboard.press('Enter');
  await expect(app.byId('editor.speaker').nth(1)).toHaveValue('Ana');
  await expect(app.byId('editor.speaker').nth(1)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(app.byId('result.segment').nth(1).getByTestId('result.word').first()).toBeFocused();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(app.byId('editor.speaker').nth(1)).toHaveValue('');
});

test('the option cards show a clear focus ring', async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  const radio = app.byId('options.language_behaviour.automatic-single-language');
  await radio.focus();
  // Focus from the keyboard (an arrow key) is what :focus-visible answers to.
  await page.keyboard.press('ArrowDown');
  const card = page.locator(
    'label:has([data-testid="options.language_behaviour.automatic-multiple-languages"])',
  );
  const outline = await card.evaluate((e) => {
    const style = getComputedStyle(e);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.style).not.toBe('none');
  expect(outline.width).toBeGreaterThanOrEqual(3);
});
