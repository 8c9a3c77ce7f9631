import { mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { fixtureResponse } from './fixtures/response';
import { spokenFile } from './fixtures/speech-files';
import { AppPage } from './pages/app-page';

const VIEWPORTS = [
  ['laptop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** Serious and critical axe-core findings on the page as it is now, described for a report. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
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
      await app.toggle('toggle_diarization');
      await app.submit();
      await expect(app.byId('job.error')).toBeVisible({ timeout: 60_000 });
      expect(await seriousViolations(page), 'job error').toEqual([]);

      // The result and its editor, with every panel open and a word being corrected.
      const saved = info.outputPath('talk.json');
      writeFileSync(saved, JSON.stringify(fixtureResponse()));
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
