import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseSync } from 'subtitle';
import { seriousViolations } from './fixtures/axe';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { savedSession } from './fixtures/saved-session';
import { AppPage } from './pages/app-page';

const player = (page: Page) =>
  page.evaluate(() => {
    const media = document.querySelector('[data-testid="result.player"]') as HTMLMediaElement;
    return { time: media.currentTime, paused: media.paused, duration: media.duration };
  });

test.describe('correcting a transcript', () => {
  test.setTimeout(240_000);

  test('edit a word, split, undo, reload, download; readable subtitles; playback follows', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'story', [
      { language: 'en', seed: 301, words: 10 },
      { language: 'en', seed: 302, words: 12 },
      { language: 'en', seed: 303, words: 9 },
    ]);
    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.submit();
    await expect(app.byId('job.progress')).toBeVisible();
    expect(await seriousViolations(page), 'progress').toEqual([]);
    await app.expectResult(200_000);
    expect(await seriousViolations(page), 'result with a player').toEqual([]);

    const segments = app.byId('result.segment');
    const count = await segments.count();
    expect(count).toBeGreaterThan(0);
    const first = segments.first();
    expect(await first.getByTestId('result.word').count()).toBeGreaterThan(3);

    // Correct a word: choose it, press F2, type, Enter.
    const firstWords = first.getByTestId('result.word');
    await firstWords.nth(1).click();
    await page.keyboard.press('F2');
    await app.byId('editor.word-input').fill('Zebra');
    await page.keyboard.press('Enter');
    await expect(first.getByTestId('result.segment-text')).toContainText('Zebra');
    const corrected = await first.getByTestId('result.segment-text').innerText();

    // A double click corrects a word too, and leaves the player still.
    await firstWords.nth(3).dblclick();
    await expect(app.byId('editor.word-input')).toBeFocused();
    expect((await player(page)).paused).toBe(true);
    await page.keyboard.press('Escape');

    // Split before the third word, then undo the split.
    await firstWords.nth(2).click();
    await first.getByTestId('editor.split').click();
    await expect(segments).toHaveCount(count + 1);
    await expect(segments.first().getByTestId('result.word')).toHaveCount(2);
    await app.byId('editor.undo').click();
    await expect(segments).toHaveCount(count);
    await expect(segments.first().getByTestId('result.segment-text')).toHaveText(corrected);

    // A reload finds the correction, and the undone split can still be redone (once they are
    // kept: the page writes them a moment after the last change).
    await expect
      .poll(async () => {
        const saved = await savedSession(page);
        return saved !== null && saved.index === saved.steps - 2 && saved.text.includes('Zebra');
      })
      .toBe(true);
    await page.reload();
    await expect(app.byId('result')).toBeVisible();
    await expect(segments).toHaveCount(count);
    await expect(segments.first().getByTestId('result.segment-text')).toHaveText(corrected);
    await app.byId('editor.redo').click();
    await expect(segments).toHaveCount(count + 1);
    await app.byId('editor.undo').click();
    await expect(segments).toHaveCount(count);

    // Every download carries the correction.
    const srt = readFileSync(await (await app.download('srt')).path(), 'utf8');
    expect(srt).toContain('Zebra');
    const json = JSON.parse(readFileSync(await (await app.download('json')).path(), 'utf8'));
    expect(JSON.stringify(json.prediction_raw.transcription)).toContain('Zebra');
    expect(readFileSync(await (await app.download('txt')).path(), 'utf8')).toContain('Zebra');

    // Readable subtitles, read by an independent parser, keep the limits and every word.
    const words = (await app.byId('result.word').allInnerTexts()).map((w) => w.trim());
    for (const format of ['readable-srt', 'readable-vtt'] as const) {
      const text = readFileSync(await (await app.download(format)).path(), 'utf8');
      const cues = parseSync(text).flatMap((n) => (n.type === 'cue' ? [n.data] : []));
      expect(cues.length).toBeGreaterThan(0);
      let previousEnd = -Infinity;
      for (const cue of cues) {
        const lines = cue.text.split('\n');
        expect(lines.length).toBeLessThanOrEqual(2);
        for (const line of lines) expect(line.length <= 42 || !line.includes(' ')).toBe(true);
        expect(cue.end - cue.start).toBeLessThanOrEqual(7000);
        expect(cue.end).toBeGreaterThan(cue.start);
        expect(cue.start - previousEnd).toBeGreaterThanOrEqual(80);
        previousEnd = cue.end;
      }
      const shown = cues.flatMap((c) => c.text.replace(/&amp;/g, '&').split(/\s+/));
      expect(shown).toEqual(words);
    }

    // The limits are the person's: shorter lines, more of them.
    await app.byId('cues.limits').locator('summary').click();
    await app.byId('cues.maxLineChars').fill('16');
    await app.byId('cues.maxLines').fill('3');
    await app.byId('cues.maxLines').fill('0');
    await expect(app.byId('cues.limits')).toContainText('At least 1; 3 is used meanwhile.');
    const narrow = readFileSync(await (await app.download('readable-srt')).path(), 'utf8');
    const narrowCues = parseSync(narrow).flatMap((n) => (n.type === 'cue' ? [n.data] : []));
    expect(narrowCues.some((c) => c.text.split('\n').length === 3)).toBe(true);
    for (const cue of narrowCues) {
      const lines = cue.text.split('\n');
      expect(lines.length).toBeLessThanOrEqual(3);
      for (const line of lines) expect(line.length <= 16 || !line.includes(' ')).toBe(true);
    }
    expect(narrowCues.flatMap((c) => c.text.split(/\s+/))).toEqual(words);
    // Speech faster than the reading speed is said, not hidden.
    await app.byId('cues.maxCharsPerSecond').fill('1');
    await expect(app.byId('cues.too-fast')).toContainText('faster to read than 1 characters');
    await app.byId('cues.maxCharsPerSecond').fill('17');
    await app.byId('cues.limits').locator('summary').click();

    // Clicking a word plays from it; the highlight follows playback.
    const lastWord = app.byId('result.word').nth(words.length - 4);
    await lastWord.click();
    const from = Number(await lastWord.getAttribute('data-begin'));
    await expect.poll(async () => (await player(page)).time).toBeGreaterThan(from + 0.2);
    await page.keyboard.press('k');
    await expect.poll(async () => (await player(page)).paused).toBe(true);
    const { time } = await player(page);
    const current = page.locator('[data-testid="result.word"][aria-current="time"]');
    await expect(current).toHaveCount(1);
    expect(Number(await current.getAttribute('data-begin'))).toBeLessThanOrEqual(time);
    expect(Number(await current.getAttribute('data-end'))).toBeGreaterThan(time);

    // Shortcuts: back and forward, previous and next segment, play and pause.
    await page.keyboard.press('j');
    await expect.poll(async () => (await player(page)).time).toBeCloseTo(Math.max(0, time - 5), 1);
    const starts = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="result.segment"]')].map((li) =>
        Number(li.getAttribute('data-begin')),
      ),
    );
    const setTime = (t: number) =>
      page.evaluate((to) => {
        (document.querySelector('[data-testid="result.player"]') as HTMLMediaElement).currentTime =
          to;
      }, t);
    await setTime((starts[0] as number) + 0.01);
    await page.keyboard.press(']');
    await expect.poll(async () => (await player(page)).time).toBeCloseTo(starts[1] as number, 2);
    await page.keyboard.press('l');
    const { duration } = await player(page);
    await expect
      .poll(async () => (await player(page)).time)
      .toBeCloseTo(Math.min(duration, (starts[1] as number) + 5), 1);
    await setTime((starts[1] as number) + 0.2);
    await page.keyboard.press('[');
    await expect.poll(async () => (await player(page)).time).toBeCloseTo(starts[0] as number, 2);
    await page.keyboard.press('k');
    await expect.poll(async () => (await player(page)).paused).toBe(false);
    await page.keyboard.press('k');
    // Ctrl+Z undoes a correction from anywhere but a text field.
    await page.keyboard.press('Control+z');
    await expect(segments.first().getByTestId('result.segment-text')).not.toContainText('Zebra');
    await page.keyboard.press('Control+Shift+z');
    await expect(segments.first().getByTestId('result.segment-text')).toContainText('Zebra');

    // Single-key shortcuts can be turned off (they would catch speech-input keystrokes).
    await app.byId('editor.shortcuts').locator('summary').click();
    await app.byId('editor.single-key-shortcuts').uncheck();
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    const before = (await player(page)).time;
    await page.keyboard.press('l');
    await page.waitForTimeout(300);
    expect((await player(page)).time).toBe(before);
  });

  test('a video shows the corrected transcript as captions, through its own track', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'clip', [
      { language: 'en', seed: 311, words: 9 },
      { language: 'en', seed: 312, words: 8 },
    ]);
    // A small WebM (VP8 and Opus, which every Chromium plays) of a still picture and the speech.
    const video = info.outputPath('clip.webm');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'color=c=navy:s=320x180:r=10', '-i', speech.path, '-shortest'],
      ...['-c:v', 'libvpx', '-b:v', '100k', '-c:a', 'libopus', video],
    ]);
    await useLocalModels(page, baseURL!);
    // The phone in the dark theme here; the first test checks the laptop in the light one.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(video);
    await app.submit();
    await expect(app.byId('job.progress')).toBeVisible();
    expect(await seriousViolations(page), 'progress on a phone').toEqual([]);
    await app.expectResult(200_000);
    expect(await seriousViolations(page), 'video result on a phone').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1366, height: 900 });
    const captions = () =>
      page.evaluate(() => {
        const media = document.querySelector('video[data-testid="result.player"]');
        const track = [...((media as HTMLVideoElement | null)?.textTracks ?? [])].find(
          (t) => t.mode === 'showing',
        );
        return [...(track?.cues ?? [])].map((c) => (c as VTTCue).text).join('\n');
      });
    await expect.poll(captions).not.toBe('');
    const word = app.byId('result.word').first();
    await word.click();
    await page.keyboard.press('F2');
    await app.byId('editor.word-input').fill('Quokka');
    await page.keyboard.press('Enter');
    await expect.poll(captions).toContain('Quokka');
    for (const line of (await captions()).split('\n')) {
      expect(line.length <= 42 || !line.includes(' ')).toBe(true);
    }

    // Pictures of the editor for the README: a laptop and a phone, a caption on the video.
    await app.byId('result.word').nth(1).click();
    await page.keyboard.press('k');
    await page.waitForTimeout(700);
    await page.keyboard.press('k');
    await app.byId('result').scrollIntoViewIfNeeded();
    await app.byId('result.title').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: 'test-results/screens/editor-laptop.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await app.byId('result.player').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: 'test-results/screens/editor-phone.png' });
  });
});
