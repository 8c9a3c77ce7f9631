import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  startUnreliableHost,
  type UnreliableHost,
  type UnreliableHostOptions,
} from '../tools/testing/unreliable-model-host';
import { TEST_TRANSLATOR, TEST_WHISPER } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

const shared = new URL('../../shared/', import.meta.url).pathname;
const jfk = `${shared}media/speech/jfk.wav`;
const MODELS = new URL('../.models/', import.meta.url).pathname;
/** The recogniser's encoder as the page loads it on WASM (8-bit). */
const ENCODER = 'onnx/encoder_model_quantized.onnx';

let host: UnreliableHost | null = null;
test.afterEach(async () => {
  await host?.close();
  host = null;
});

/** The app on the test models, from a host of its own that behaves as `options` says. */
async function openWith(page: Page, options: UnreliableHostOptions): Promise<AppPage> {
  host = await startUnreliableHost(MODELS, options);
  const settings = {
    modelHost: host.url,
    whisperModel: TEST_WHISPER,
    translationModel: TEST_TRANSLATOR,
    useGpu: false,
  };
  await page.addInitScript((value) => {
    if (!localStorage.getItem('murmur.settings')) localStorage.setItem('murmur.settings', value);
  }, JSON.stringify(settings));
  const app = new AppPage(page);
  await app.goto();
  return app;
}

/** Requests that asked for the rest of a file from a byte past its start. */
const resumed = (h: UnreliableHost, file?: string) =>
  (file ? h.requestsFor(file) : h.requests).filter((r) => /^bytes=[1-9]\d*-$/.test(r.range ?? ''));

/** Whether the page's model cache holds a file of the recogniser. */
const cachedInPage = (page: Page, url: string) =>
  page.evaluate(async (u) => {
    for (const name of await caches.keys()) {
      if (await (await caches.open(name)).match(u)) return true;
    }
    return false;
  }, url);

test.describe('model downloads that survive a bad network', () => {
  test('a host that cuts each file’s first connection half-way: resumed with Range, transcribed', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const app = await openWith(page, { firstConnection: 'cut' });
    await app.chooseFile(jfk);
    await app.submit();
    await app.expectResult(100_000);
    const encoder = resumed(host!, ENCODER);
    expect(encoder.length).toBe(1);
    expect(encoder[0]!.status).toBe(206);
  });

  test('a host without Range support is read again whole, and the transcription finishes', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const app = await openWith(page, { firstConnection: 'cut', ranges: false });
    await app.chooseFile(jfk);
    await app.submit();
    await app.expectResult(100_000);
    // Downloads only: the Models list asks the file's size (HEAD) when the page opens and after
    // a transcription, and transformers.js asks for its first byte alone to learn it.
    const asked = host!
      .requestsFor(ENCODER)
      .filter((r) => r.method === 'GET' && r.range !== 'bytes=0-0');
    expect(asked.length).toBe(2);
    expect(asked.map((r) => r.status)).toEqual([200, 200]);
  });

  test('a file that arrives with another sha256 is refused with a sentence and not cached', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const app = await openWith(page, { damaged: { [ENCODER]: 'sha256' } });
    const real = createHash('sha256')
      .update(readFileSync(`${MODELS}${TEST_WHISPER}/${ENCODER}`))
      .digest('hex');
    const announced = createHash('sha256').update(real).digest('hex');
    const sentence = `The recognition model "${TEST_WHISPER}" could not be loaded from ${host!.url}: its file ${ENCODER} arrived with a sha256 checksum (${real.slice(0, 12)}…) other than the one the host announced (${announced.slice(0, 12)}…), so it was damaged on the way and was not kept. Check the model and the model host under Models.`;
    await app.chooseFile(jfk);
    await app.submit();
    await expect(app.byId('job.error-message')).toHaveText(sentence, { timeout: 60_000 });
    const url = `${host!.url}${TEST_WHISPER}/resolve/main/${ENCODER}`;
    expect(await cachedInPage(page, url)).toBe(false);

    // The second try finds nothing kept: it asks the host for the whole file again.
    const before = host!.requestsFor(ENCODER).length;
    await app.submit();
    await expect(app.byId('job.error-message')).toHaveText(sentence, { timeout: 60_000 });
    const again = host!.requestsFor(ENCODER).slice(before);
    expect(again.some((r) => r.method === 'GET' && r.range === null)).toBe(true);
    expect(await cachedInPage(page, url)).toBe(false);
  });

  test('a reload during a download goes on from the part kept', async ({ page }) => {
    test.setTimeout(150_000);
    const app = await openWith(page, { firstConnection: 'stall', only: [ENCODER] });
    await app.chooseFile(jfk);
    await app.submit();
    // The encoder's first connection sends half the file, then nothing: wait for a kept part.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            // Opening a database that is not there would create it empty, without its store.
            const known = await indexedDB.databases();
            if (!known.some((d) => d.name === 'murmur-model-parts')) return 0;
            return new Promise<number>((resolve) => {
              const open = indexedDB.open('murmur-model-parts');
              open.onsuccess = () => {
                const db = open.result;
                if (!db.objectStoreNames.contains('parts')) return resolve(0);
                const keys = db.transaction('parts').objectStore('parts').getAllKeys();
                keys.onsuccess = () =>
                  resolve(keys.result.filter((k) => String(k).includes('encoder')).length);
                keys.onerror = () => resolve(0);
              };
              open.onerror = () => resolve(0);
            });
          }),
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    await page.reload();
    await app.byId('form.submit').waitFor();
    await app.chooseFile(jfk);
    await app.submit();
    await app.expectResult(100_000);
    const encoder = resumed(host!, ENCODER);
    expect(encoder.length).toBe(1);
    expect(encoder[0]!.status).toBe(206);
  });
});
