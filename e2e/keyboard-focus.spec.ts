import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './fixtures/axe';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/** The focused element: its test id (or tag), whether it shows, and its outline. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { id: 'body', shown: false, ring: 'none' };
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      id: element.getAttribute('data-testid') ?? element.tagName.toLowerCase(),
      shown: box.width > 1 && box.height > 1,
      ring: style.outlineStyle === 'none' || style.outlineWidth === '0px' ? 'none' : 'outline',
    };
  });
}

/** Presses Tab until the element with `testId` has the focus; every stop on the way, in order. */
async function tabTo(page: Page, testId: string): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    stops.push(now.id);
    if (now.id === testId) return stops;
  }
  throw new Error(`Tab never reached ${testId}: ${stops.join(', ')}`);
}

test.describe('the keyboard alone', () => {
  test.setTimeout(180_000);

  test('choosing a file and transcribing it keep the focus on something visible', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'keys', [{ language: 'en', seed: 521, words: 6 }]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();

    // Waited for from the start: the browser hands the chooser over only once that is set up.
    const chooser = page.waitForEvent('filechooser');
    await tabTo(page, 'media.choose');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(speech.path);
    // The chosen file takes the focus from the button it replaced, and shows it.
    await expect(app.byId('media.chosen')).toBeFocused();
    await expect(app.byId('media.chosen')).toContainText('keys.wav');
    expect(await focused(page)).toEqual({ id: 'media.chosen', shown: true, ring: 'outline' });
    await app.byId('media.dropzone').screenshot({ path: '/tmp/app-focus-chosen.png' });
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Remove' })).toBeFocused();
    expect(await seriousViolations(page), 'a file chosen').toEqual([]);

    // Every stop from there to Transcribe shows; the file input itself is never one.
    const stops = await tabTo(page, 'form.submit');
    expect(stops).not.toContain('media.file');
    expect(stops).not.toContain('body');

    await page.keyboard.press('Enter');
    await app.expectResult(150_000);
    // The result's heading takes the focus the disabled Transcribe button dropped.
    await expect(app.byId('result.title')).toBeFocused();
    await expect(app.byId('result.title')).toHaveText('keys');
    expect(await focused(page)).toEqual({ id: 'result.title', shown: true, ring: 'outline' });
    await page.screenshot({ path: '/tmp/app-focus-result.png' });
    expect(await seriousViolations(page), 'a result').toEqual([]);
    // And Tab goes on from it, into the result.
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('download.json');

    // Removing the file hands the focus back to the button that chooses one.
    await app.byId('media.chosen').getByRole('button', { name: 'Remove' }).focus();
    await page.keyboard.press('Enter');
    await expect(app.byId('media.choose')).toBeFocused();
  });

  for (const [name, viewport] of [
    ['laptop', { width: 1366, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`after Cancel the status stays in sight and has the focus, on a ${name}`, async ({
      page,
      baseURL,
    }, info) => {
      await page.setViewportSize(viewport);
      mkdirSync(info.outputDir, { recursive: true });
      const speech = spokenFile(
        info.outputDir,
        'long',
        [0, 1, 2, 3, 4, 5].map((k) => ({ language: 'en' as const, seed: 530 + k, words: 12 })),
      );
      await useLocalModels(page, baseURL!, false);
      const app = new AppPage(page);
      await app.goto();
      await app.chooseFile(speech.path);
      await app.submit();
      await expect(app.byId('job.progress')).toBeVisible();
      await app.byId('form.cancel').click();
      await expect(app.byId('job.cancelled')).toHaveText(
        'Cancelled. Your file and options are still here.',
      );
      await expect(app.byId('job.cancelled')).toBeInViewport();
      await expect(app.byId('job.cancelled')).toBeFocused();
      await page.screenshot({ path: `/tmp/app-cancelled-${name}.png` });
    });
  }
});
