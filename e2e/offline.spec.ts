import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { TEST_TRANSLATOR, TEST_WHISPER, useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/** The service worker as the preview server serves it (`vite preview` serves `dist/`). */
const SERVICE_WORKER = 'dist/sw.js';

/** Waits for the service worker to be installed (everything precached) and in control. */
async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

async function transcribe(app: AppPage, path: string): Promise<string> {
  await app.chooseFile(path);
  await app.submit();
  await app.expectResult(120_000);
  return (await app.byId('result.segment-text').allInnerTexts()).join(' ');
}

test.describe('installed app', () => {
  test.setTimeout(240_000);

  test('after one online visit the app opens and transcribes with the network off', async ({
    page,
    context,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const first = spokenFile(info.outputDir, 'online', [{ language: 'en', seed: 301, words: 6 }]);
    const second = spokenFile(info.outputDir, 'offline', [{ language: 'en', seed: 302, words: 7 }]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await serviceWorkerInControl(page);
    expect(await transcribe(app, first.path)).not.toBe('');

    await context.setOffline(true);
    // The network is really gone: a file that was never cached cannot be fetched.
    expect(
      await page.evaluate(() =>
        fetch('/never-cached.txt').then(
          () => 'fetched',
          () => 'failed',
        ),
      ),
    ).toBe('failed');
    await page.reload();
    await app.byId('form.submit').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    const text = await transcribe(app, second.path);
    expect(text).not.toBe('');
    expect(await app.byId('result.title').textContent()).toBe('offline');
    await context.setOffline(false);
  });

  test('after Make available offline, with no transcription before, the app reloads and transcribes with the network off', async ({
    page,
    context,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const file = spokenFile(info.outputDir, 'ahead', [{ language: 'en', seed: 305, words: 6 }]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await serviceWorkerInControl(page);
    await page.getByText('Models', { exact: true }).click();
    // The total is said before anything is fetched: the runtimes this device uses (no GPU
    // here) and the models in use; the test recogniser's size, which the catalogue lacks, as
    // its host gives it (the size its row shows).
    const hostSize = app.byId('models.recognition-size');
    await expect(hostSize).toHaveText(/^[\d.]+ MB$/);
    await expect(app.byId('offline.plan')).toHaveText(
      new RegExp(
        `^Fetches [\\d.]+ MB: the decoder \\(\\d+ MB\\), the speech runtime \\(\\d+ MB\\), the recognition model \\(${(await hostSize.innerText()).replace('.', '\\.')}\\) and the voice activity model \\(2\\.3 MB\\)\\.$`,
      ),
    );
    await app.byId('offline.prepare').click();
    await expect(app.byId('offline.done')).toHaveText(
      'Ready for offline use: Murmur now transcribes in this browser with the network off.',
      { timeout: 120_000 },
    );
    await expect(app.byId('offline.error')).toHaveCount(0);

    await context.setOffline(true);
    await page.reload();
    await app.byId('form.submit').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // Chapters need the stop words, sentiment its word lists, fetched with the rest.
    await app.toggle('toggle_chapterization');
    await app.toggle('toggle_emotion_recognition');
    expect(await transcribe(app, file.path)).not.toBe('');
    expect(await app.byId('result.title').textContent()).toBe('ahead');
    await expect(app.byId('result.chapters-note')).toHaveText(
      'One chapter: the recording is shorter than 2 minutes.',
    );
    await expect(app.byId('result.sentiment-label')).not.toHaveCount(0);
    await expect(app.byId('result.sentiment-note')).toHaveCount(0);
    // The Word writer was fetched ahead too: a DOCX is written offline, sentiment first.
    await app.byId('documents').locator('summary').click();
    const docx = await app.download('docx');
    const xml = execFileSync('unzip', ['-p', await docx.path(), 'word/document.xml']).toString(
      'utf8',
    );
    expect(xml).toMatch(/Sentiment.*Whole file: .*\[0:00\] /s);
    await context.setOffline(false);
  });

  test('opened from a settings link, the app reloads and opens that link with the network off', async ({
    page,
    context,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const first = spokenFile(info.outputDir, 'linked', [{ language: 'en', seed: 303, words: 6 }]);
    const second = spokenFile(info.outputDir, 'reloaded', [
      { language: 'en', seed: 304, words: 7 },
    ]);
    const link = `/?${new URLSearchParams({
      models: `${baseURL}/hub/`,
      model: TEST_WHISPER,
      translation: TEST_TRANSLATOR,
    })}`;
    await page.goto(link);
    const app = new AppPage(page);
    await app.byId('form.submit').waitFor();
    // Applied and saved, the settings leave the address.
    expect(new URL(page.url()).search).toBe('');
    await serviceWorkerInControl(page);
    expect(await transcribe(app, first.path)).not.toBe('');

    await context.setOffline(true);
    await page.reload();
    await app.byId('form.submit').waitFor();
    expect(await transcribe(app, second.path)).not.toBe('');
    // The link itself, bookmarked or shared, opens offline too.
    await page.goto(link);
    await app.byId('form.submit').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await context.setOffline(false);
  });

  test('the manifest and the service worker pass the browser’s installability checks', async ({
    baseURL,
  }, info) => {
    // Chromium refuses installation in incognito windows, which every test context is: the
    // check runs in a browser with a profile of its own, as a user's is.
    const profile = mkdtempSync(join(tmpdir(), 'murmur-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      ...info.project.use.launchOptions,
      ...(baseURL ? { baseURL } : {}),
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const app = new AppPage(page);
    await app.goto();
    await serviceWorkerInControl(page);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await page.request.get(new URL(href!, baseURL).href)).json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest.short_name).toBe('Murmur');
    expect(manifest.name).toContain('Murmur');
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    const sizes = new Set(manifest.icons.map((i) => i.sizes));
    expect(sizes).toContain('192x192');
    expect(sizes).toContain('512x512');
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const answer = await page.request.get(new URL(icon.src, baseURL).href);
      expect(answer.status(), icon.src).toBe(200);
    }

    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });

  test('a new version is offered, and the page switches to it only when asked', async ({
    page,
  }) => {
    const app = new AppPage(page);
    await app.goto();
    await serviceWorkerInControl(page);
    const first = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
    await expect(app.byId('app.update')).toHaveCount(0);

    // A deployment: the built service worker changes on the server (the browser fetches it
    // itself, past the test's request routing), and is put back afterwards.
    const built = readFileSync(SERVICE_WORKER, 'utf8');
    writeFileSync(SERVICE_WORKER, `${built}\n// next version\n`);
    try {
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())!.update();
      });
    } finally {
      writeFileSync(SERVICE_WORKER, built);
    }
    await expect(app.byId('app.update')).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toBe(first);
    const waiting = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())!.waiting !== null,
    );
    expect(waiting).toBe(true);

    await Promise.all([page.waitForEvent('load'), app.byId('app.update-reload').click()]);
    await app.byId('form.submit').waitFor();
    await expect(app.byId('app.update')).toHaveCount(0);
    expect(
      await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration())!.waiting === null,
      ),
    ).toBe(true);
  });
});
