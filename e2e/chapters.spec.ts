import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { topicRecording } from '../tools/testing/topic-speech';
import { seriousViolations } from './fixtures/axe';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test.describe('chapters and a summary in the browser', () => {
  test.setTimeout(240_000);

  test('three topics give three chapters that seek the player, a summary and chapter downloads', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const recording = topicRecording(info.outputDir, 'topics', 'en', 3, {
      passages: 3,
      passageSeconds: 45,
    });

    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(recording.path);
    await app.toggle('toggle_chapterization');
    await app.toggle('toggle_summarization');
    await app.byId('options.summarization_type').selectOption('bullet_points');
    await page.screenshot({ path: 'test-results/screens/chapters-options.png', fullPage: true });
    await app.submit();
    await app.expectResult(200_000);

    const chapters = app.byId('result.chapter');
    await expect(chapters).toHaveCount(3);
    await expect(app.byId('result.chapter-heading')).toHaveCount(3);
    await expect(app.byId('result.chapter-strip').getByRole('button')).toHaveCount(3);
    const summary = app.byId('result.summarization');
    await expect(summary.getByRole('heading', { name: 'Summary' })).toBeVisible();
    expect(await summary.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: 'test-results/screens/chapters-result.png', fullPage: true });

    // A chapter's headline plays from its start and moves the transcript to its heading.
    const second = recording.passages[1]!;
    const headline = chapters.nth(1).getByRole('button');
    await expect(headline).toContainText(/^0:4\d/);
    await headline.focus();
    await page.keyboard.press('Enter');
    const player = app.byId('result.player');
    await expect
      .poll(() => player.evaluate((p: HTMLMediaElement) => p.currentTime))
      .toBeGreaterThanOrEqual(second.sentences[0]!.start - 3);
    expect(await player.evaluate((p: HTMLMediaElement) => p.currentTime)).toBeLessThan(
      second.sentences[1]!.end,
    );
    await expect(app.byId('result.chapter-heading').nth(1)).toBeFocused();
    await player.evaluate((p: HTMLMediaElement) => p.pause());

    // The downloads: video-description lines, the first at 0:00, and a WebVTT chapters track.
    const lines = readFileSync(await (await app.download('chapters')).path(), 'utf8');
    const listed = lines.trimEnd().split('\n');
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatch(/^0:00 \S/);
    const track = readFileSync(await (await app.download('chapters-vtt')).path(), 'utf8');
    expect(track.match(/-->/g)).toHaveLength(3);

    for (const scheme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 1366, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(viewport);
        expect(await seriousViolations(page), `${scheme} ${viewport.width}`).toEqual([]);
      }
    }
    await page.screenshot({ path: 'test-results/screens/chapters-phone-dark.png', fullPage: true });
  });
});
