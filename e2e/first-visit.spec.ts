import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { NetworkBytes } from '../tools/testing/network-bytes';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/** What a first visit may fetch before a file is chosen: the shell and the page's code. */
const FIRST_VISIT_BOUND = 3_000_000;

const RUNTIME_FILE = /\/assets\/(ffmpeg-core|ort-wasm-simd-threaded)/;

/** A runtime's size in whole MB, as the page says it, from the built files. */
function builtMb(pattern: RegExp): number {
  const bytes = readdirSync('dist/assets')
    .filter((name) => pattern.test(name))
    .reduce((sum, name) => sum + statSync(join('dist/assets', name)).size, 0);
  return Math.round(bytes / 1_000_000);
}

async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

/** Every text the runtime lines of the form showed, in order, from the page's first paint. */
async function recordRuntimeLines(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { runtimeLines: string[] }).runtimeLines = seen;
    new MutationObserver(() => {
      for (const line of document.querySelectorAll('[data-testid^="runtime.progress-"]')) {
        const text = line.textContent ?? '';
        if (seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

test.describe('first visit', () => {
  test.setTimeout(180_000);

  test('the first visit fetches the page’s code only, under 3 MB, its service worker’s fetches counted', async ({
    page,
    context,
  }) => {
    const network = new NetworkBytes(context);
    const app = new AppPage(page);
    await app.goto();
    await serviceWorkerInControl(page);
    await network.quiet(2_000);

    // The service worker's own fetches (its precache) are among those counted.
    const bySw = network.files.filter((f) => f.byServiceWorker);
    expect(bySw.length).toBeGreaterThan(0);
    expect(bySw.some((f) => /\/assets\/main-.*\.js$/.test(f.url))).toBe(true);
    expect(network.files.filter((f) => RUNTIME_FILE.test(f.url))).toEqual([]);
    expect(network.total()).toBeGreaterThan(0);
    expect(network.total()).toBeLessThanOrEqual(FIRST_VISIT_BOUND);
    // Opening the settings fetches nothing either.
    const before = network.files.length;
    await page.getByText('Models', { exact: true }).click();
    await expect(app.byId('offline.plan')).toContainText('Fetches');
    await network.quiet(1_000);
    expect(network.files.slice(before)).toEqual([]);
  });

  test('a chosen file fetches the decoder with its progress said, and only the runtime builds this device uses', async ({
    page,
    context,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const file = spokenFile(info.outputDir, 'first', [{ language: 'en', seed: 311, words: 5 }]);
    // The GPU is allowed, but this browser hands out no adapter.
    await useLocalModels(page, baseURL!, true);
    await recordRuntimeLines(page);
    const network = new NetworkBytes(context);
    const app = new AppPage(page);
    await app.goto();
    await serviceWorkerInControl(page);
    await network.quiet(1_000);
    expect(network.files.filter((f) => RUNTIME_FILE.test(f.url))).toEqual([]);

    await app.chooseFile(file.path);
    await app.submit();
    await app.expectResult(120_000);
    await network.settled();

    const decoderMb = builtMb(/^ffmpeg-core-/);
    const lines = await page.evaluate(
      () => (window as unknown as { runtimeLines: string[] }).runtimeLines,
    );
    const decoder = lines.flatMap((line) => {
      const match = new RegExp(`^Preparing the decoder: (\\d+) of ${decoderMb} MB$`).exec(line);
      return match ? [Number(match[1])] : [];
    });
    expect(decoder[0]).toBe(0);
    expect(decoder.some((mb) => mb > 0 && mb < decoderMb)).toBe(true);
    expect([...decoder].sort((a, b) => a - b)).toEqual(decoder);
    expect(
      lines.every((line) => /^Preparing the (decoder|speech runtime): \d+ of \d+ MB$/.test(line)),
    ).toBe(true);
    // Done, the lines go.
    await expect(page.locator('[data-testid^="runtime.progress-"]')).toHaveCount(0);

    const runtimes = network.files.filter((f) => RUNTIME_FILE.test(f.url)).map((f) => f.url);
    expect(runtimes.some((url) => /ffmpeg-core-.*\.wasm$/.test(url))).toBe(true);
    expect(runtimes.some((url) => /ort-wasm-simd-threaded-.*\.wasm$/.test(url))).toBe(true);
    expect(runtimes.filter((url) => url.includes('asyncify'))).toEqual([]);
    // Each runtime file was fetched once, then served from the app's cache.
    expect(new Set(runtimes).size).toBe(runtimes.length);
  });
});
