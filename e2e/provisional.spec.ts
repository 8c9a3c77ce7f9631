import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/**
 * While a file is transcribed, the text of the window being decoded is shown before its checks
 * pass, marked as provisional, and the final segments replace it.
 */
test.describe('provisional text while transcribing', () => {
  test.setTimeout(180_000);

  test('shows a provisional line while transcribing and only the final segments at the end', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(
      info.outputDir,
      'provisional',
      [0, 1, 2, 3].map((k) => ({ language: 'en' as const, seed: 1200 + k, words: 8 })),
      1,
    );
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    // Every provisional line the page shows, as it shows it (each may last a moment only).
    await page.evaluate(() => {
      const seen: { text: string; italic: boolean; status: string | null }[] = [];
      (window as unknown as { provisionalSeen: typeof seen }).provisionalSeen = seen;
      new MutationObserver(() => {
        const line = document.querySelector('[data-testid="result.provisional"]');
        const text = line?.textContent ?? null;
        if (text === null || seen.at(-1)?.text === text) return;
        const words = line!.querySelector('.italic');
        seen.push({
          text,
          italic: words !== null && getComputedStyle(words).fontStyle === 'italic',
          // The status's title as shown beside it.
          status: document.querySelector('[data-testid="job.progress"] p')?.textContent ?? null,
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await app.chooseFile(speech.path);
    await app.chooseBehaviour('manual');
    await app.fill('language', 'english');
    await app.submit();
    await app.expectResult(150_000);

    const seen = await page.evaluate(
      () =>
        (
          window as unknown as {
            provisionalSeen: { text: string; italic: boolean; status: string | null }[];
          }
        ).provisionalSeen,
    );
    expect(seen.length).toBeGreaterThan(0);
    // The model was downloaded first (a new browser has none); while its text shows, the
    // status says what is happening: recognition, not the download before it.
    for (const line of seen) expect(line.status).toMatch(/^Recognising speech · \d+%$/);
    // A time, then the words in italics, which a screen reader reads after "Provisional:".
    const shown = seen.map((line) => {
      const match = /^\d+:\d\dProvisional: (.+)$/.exec(line.text);
      expect(match, line.text).not.toBeNull();
      expect(line.italic).toBe(true);
      return match![1]!;
    });
    // At the end only the final segments are shown.
    await expect(app.byId('result.provisional')).toHaveCount(0);
    const finals = (await app.byId('result.segment-text').allInnerTexts()).map((t) => t.trim());
    expect(finals.length).toBeGreaterThan(0);
    // The first segment's words were shown before the segment itself.
    expect(shown.some((text) => text.startsWith(finals[0]!))).toBe(true);
  });
});
