/**
 * What a person's first visit costs in bytes and seconds, in Chromium against the built app
 * (`vite build`, served by `vite preview` with its local model host at /hub/):
 * - the first visit: every response of the page, its workers and its service worker until
 *   nothing more is asked (no file chosen);
 * - the first transcription of a short generated recording: the runtimes it fetched (the
 *   decoder, onnxruntime's builds), the model files, and the seconds from choosing the file
 *   until each had arrived and until the result showed.
 * Each runs unthrottled and over a 10 Mbit/s link (both ways, shared by every connection: see
 * `throttledRelay`), in a fresh profile.
 * usage: npm run bench:first-visit, or
 *   npx tsx tools/bench/first-visit.ts [--model murmur-test/whisper-synth] [--mbit 10]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { BrowserContext, Page } from '@playwright/test';
import { NetworkBytes } from '../testing/network-bytes';
import { sentence, spokenFile } from '../testing/speech';
import { writeBenchResult } from './bench-result';
import { CACHE, REPO } from './bench-media';
import { launchChromium, startPreview } from './chromium';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const model = option('model', 'murmur-test/whisper-synth');
const mbit = Number(option('mbit', '10'));
const port = Number(process.env.MURMUR_BENCH_PORT ?? 4180);

const RUNTIME_FILE = /\/assets\/(ffmpeg-core|ort-wasm-simd-threaded)/;
const MODEL_FILE = /\/hub\//;
const MB = 1_000_000;

/** The app as it is deployed: no harness pages, outside the repository. */
function buildApp(): string {
  const outDir = process.env.MURMUR_BENCH_DIST ?? join(tmpdir(), 'murmur-bench-first-visit');
  execFileSync(
    'npx',
    ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: REPO,
      env: { ...process.env, MURMUR_HARNESS: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return outDir;
}

/**
 * A link of `bitsPerSecond` each way between the browser and the server, shared by every
 * connection as one line is: a TCP relay that paces what it passes on. DevTools' network
 * emulation (Network.emulateNetworkConditions) cannot stand in for it here: Chromium refuses it
 * for dedicated workers ("Not supported") and, set on the service worker, it left the service
 * worker's fetches (the runtimes, the precache) at full speed.
 */
function throttledRelay(upstreamPort: number, bitsPerSecond: number) {
  const pace = () => {
    let nextFree = 0;
    return (bytes: number) => {
      const now = Date.now();
      const at = Math.max(now, nextFree);
      nextFree = at + (bytes * 8 * 1000) / bitsPerSecond;
      return nextFree - now;
    };
  };
  const down = pace();
  const up = pace();
  // What arrives is taken at once (a server that finished sending may close its side) and
  // passed on at the link's pace, in order.
  const pipe = (from: Socket, to: Socket, wait: (bytes: number) => number) => {
    let last = Promise.resolve();
    const later = (bytes: number, then: () => void) => {
      const at = Date.now() + wait(bytes);
      last = last
        .then(() => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now()))))
        .then(then);
    };
    from.on('data', (chunk: Buffer) => later(chunk.byteLength, () => void to.write(chunk)));
    from.on('end', () => later(0, () => to.end()));
    from.on('error', () => later(0, () => to.destroy()));
    to.on('error', () => from.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    pipe(upstream, client, down);
    pipe(client, upstream, up);
  });
  return new Promise<{ port: number; close: () => void }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, close: () => server.close() });
    });
  });
}

async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

interface Visit {
  firstVisitBytes: number;
  firstVisitSeconds: number;
  firstVisitFiles: number;
  runtimeBytes: number;
  runtimeSeconds: number;
  modelBytes: number;
  modelSeconds: number;
  transcriptionSeconds: number;
}

async function visit(context: BrowserContext, base: string, recording: string): Promise<Visit> {
  const settings = { modelHost: `${base}/hub/`, whisperModel: model, useGpu: true };
  await context.addInitScript((value) => {
    localStorage.setItem('murmur.settings', value);
  }, JSON.stringify(settings));
  const network = new NetworkBytes(context);
  const page = await context.newPage();
  const opened = Date.now();
  await page.goto(`${base}/`);
  await page.getByTestId('form.submit').waitFor();
  await serviceWorkerInControl(page);
  await network.quiet(3_000);
  const firstVisit = [...network.files];
  const firstVisitEnd = Math.max(...firstVisit.map((f) => f.finishedAt));

  const chosen = Date.now();
  await page.getByTestId('media.file').setInputFiles(recording);
  await page.getByTestId('form.submit').click();
  await page.getByTestId('result').or(page.getByTestId('job.error')).waitFor({ timeout: 900_000 });
  if ((await page.getByTestId('job.error').count()) > 0)
    throw new Error(`The transcription failed: ${await page.getByTestId('job.error').innerText()}`);
  const done = Date.now();
  await network.settled();
  const later = network.files.slice(firstVisit.length);
  const runtimes = later.filter((f) => RUNTIME_FILE.test(f.url));
  const models = later.filter((f) => MODEL_FILE.test(f.url));
  const lastOf = (files: typeof later) =>
    files.length === 0 ? 0 : (Math.max(...files.map((f) => f.finishedAt)) - chosen) / 1000;
  return {
    firstVisitBytes: firstVisit.reduce((sum, f) => sum + f.bytes, 0),
    firstVisitSeconds: (firstVisitEnd - opened) / 1000,
    firstVisitFiles: firstVisit.length,
    runtimeBytes: runtimes.reduce((sum, f) => sum + f.bytes, 0),
    runtimeSeconds: lastOf(runtimes),
    modelBytes: models.reduce((sum, f) => sum + f.bytes, 0),
    modelSeconds: lastOf(models),
    transcriptionSeconds: (done - chosen) / 1000,
  };
}

async function main() {
  const dir = join(CACHE, 'first-visit');
  mkdirSync(dir, { recursive: true });
  const recording = spokenFile(dir, 'first-visit', [
    { language: 'en', text: sentence('en', 9101, 8) },
  ]).path;
  console.log('Building the app…');
  const outDir = buildApp();
  const server = await startPreview(outDir, port, '/');
  const results: Record<string, Visit> = {};
  try {
    for (const [name, throttle] of [
      ['unthrottled', null],
      [`${mbit} Mbit/s`, mbit * MB],
    ] as const) {
      const browser = await launchChromium();
      const relay = throttle === null ? null : await throttledRelay(port, throttle);
      try {
        const context = await browser.newContext();
        const base = relay ? `http://127.0.0.1:${relay.port}` : server.base;
        results[name] = await visit(context, base, recording);
        await context.close();
      } finally {
        await browser.close();
        relay?.close();
      }
      const r = results[name]!;
      console.log(
        `${name}: first visit ${(r.firstVisitBytes / MB).toFixed(2)} MB in ${r.firstVisitSeconds.toFixed(1)} s (${r.firstVisitFiles} files); ` +
          `first transcription: runtimes ${(r.runtimeBytes / MB).toFixed(1)} MB by ${r.runtimeSeconds.toFixed(1)} s, ` +
          `models ${(r.modelBytes / MB).toFixed(1)} MB by ${r.modelSeconds.toFixed(1)} s, result at ${r.transcriptionSeconds.toFixed(1)} s`,
      );
    }
  } finally {
    server.stop();
  }
  const figures: Record<string, number> = {};
  const units: Record<string, string> = {};
  for (const [name, r] of Object.entries(results)) {
    const key = name === 'unthrottled' ? 'unthrottled' : 'throttled';
    for (const [what, value] of Object.entries(r)) {
      const bytes = what.endsWith('Bytes');
      figures[`chromium.${key}.${what}`] = bytes ? Math.round((value / MB) * 100) / 100 : value;
      units[`chromium.${key}.${what}`] = bytes ? 'MB' : what.endsWith('Files') ? '' : 's';
    }
  }
  const path = writeBenchResult(import.meta.filename, {
    name: 'first-visit',
    settings: { model, throttled_mbit: mbit, recording: 'generated English, 8 words' },
    figures,
    ratios: {},
    units,
  });
  console.log(`Written to ${path}`);
}

await main();
