import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

// A browser that lets media play without a gesture: whatever the page starts, plays.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
});

/** The result's player as the page has it now. */
const player = (page: Page) =>
  page.getByTestId('result.player').evaluate((m) => {
    const media = m as HTMLMediaElement;
    return { src: media.src, paused: media.paused, time: media.currentTime };
  });

test('a new result does not play by itself after a word of the one before was played', async ({
  page,
  baseURL,
}, info) => {
  test.setTimeout(240_000);
  mkdirSync(info.outputDir, { recursive: true });
  const first = spokenFile(info.outputDir, 'first', [{ language: 'en', seed: 511, words: 8 }]);
  const second = spokenFile(info.outputDir, 'second', [{ language: 'en', seed: 512, words: 8 }]);
  await useLocalModels(page, baseURL!, false);
  const app = new AppPage(page);
  await app.goto();
  // Every start of playback on the page, by any media element, counted as it happens.
  await page.evaluate(() => {
    const plays: string[] = [];
    (window as unknown as { plays: string[] }).plays = plays;
    document.addEventListener('play', (e) => plays.push((e.target as HTMLMediaElement).src), true);
  });
  const plays = () => page.evaluate(() => (window as unknown as { plays: string[] }).plays.length);

  await app.chooseFile(first.path);
  await app.submit();
  await app.expectResult(150_000);
  // A word chosen plays; the player's own pause stops it.
  await app.byId('result.word').nth(2).click();
  await expect.poll(async () => (await player(page)).paused).toBe(false);
  await app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).pause());
  const heard = await plays();
  expect(heard).toBeGreaterThan(0);
  const before = (await player(page)).src;

  await app.chooseFile(second.path);
  await app.submit();
  await expect(app.byId('result.title')).toHaveText('second', { timeout: 150_000 });
  // The new media is loaded and could play; it does not.
  await expect
    .poll(() => app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).readyState >= 2))
    .toBe(true);
  const now = await player(page);
  expect(now.src).not.toBe(before);
  expect(now.paused).toBe(true);
  expect(now.time).toBe(0);
  expect(await plays()).toBe(heard);

  // Reopening the first one from the history does not play it either.
  await app.byId('history.item').filter({ hasText: 'first' }).getByTestId('history.open').click();
  await expect(app.byId('result.title')).toHaveText('first');
  await expect
    .poll(() => app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).readyState >= 2))
    .toBe(true);
  expect((await player(page)).paused).toBe(true);
  expect(await plays()).toBe(heard);
});
