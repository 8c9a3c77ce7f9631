/**
 * The translator alone, per segment, in Node (onnxruntime-node, full precision) and in Chromium
 * (the browser host's port in a module worker, onnxruntime-web on WASM, 8-bit weights): the
 * same sequences of parallel rows (3 to 10 words, as segments), English and Spanish into the
 * other three languages; word error against the target rows, and time per segment.
 * usage: tsx tools/bench/translation-port.ts [--sequences 20] [--translation-model ID] [--node-only]
 */
import { join } from 'node:path';
import { nodeEnginePorts } from '../../src/hosts/node';
import { REPO } from '../testing/ffmpeg-fixtures';
import type {
  TranslationReply,
  TranslationResult,
  TranslationRun,
} from '../../e2e/harness/translation-protocol';
import { parallelRows, rowSequence, rowsText } from '../testing/parallel';
import type { TestLanguage } from '../testing/speech';
import { wordErrorRate } from '../testing/wer';
import { buildHarness, launchChromium, startPreview } from './chromium';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const count = Number(option('sequences') ?? 20);
const translationModel = option('translation-model') ?? 'murmur-test/m2m100-synth';
const PAIRS: [TestLanguage, TestLanguage][] = [
  ['en', 'fr'],
  ['en', 'de'],
  ['en', 'es'],
  ['es', 'fr'],
  ['es', 'de'],
  ['es', 'en'],
];
const rows = parallelRows();
const sequences = Array.from({ length: count }, (_, i) =>
  rowSequence(5000 + i, 3 + (i % 8), rows.length),
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Result {
  host: string;
  pair: string;
  wer: number;
  meanMs: number;
  medianMs: number;
  loadSeconds: number;
}
const results: Result[] = [];

function score(host: string, from: TestLanguage, to: TestLanguage, reply: TranslationResult) {
  const reference = sequences.map((s) => rowsText(rows, s, to)).join(' ');
  // The first call warms the runtime up: left out of the times.
  const seconds = reply.seconds.slice(1);
  results.push({
    host,
    pair: `${from}>${to}`,
    wer: wordErrorRate(reference, reply.translations.join(' ')),
    meanMs: 1000 * mean(seconds),
    medianMs: 1000 * median(seconds),
    loadSeconds: reply.loadSeconds,
  });
  console.error(JSON.stringify(results.at(-1)));
}

async function nodeRuns() {
  const ports = nodeEnginePorts({
    models: join(REPO, '.models'),
    model: 'unused',
    translationModel,
  });
  const t0 = performance.now();
  const translator = await ports.translator!.load({});
  const loadSeconds = (performance.now() - t0) / 1000;
  for (const [from, to] of PAIRS) {
    const translations: string[] = [];
    const seconds: number[] = [];
    for (const s of sequences) {
      const t = performance.now();
      const [out] = await translator.translate([rowsText(rows, s, from)], from, to);
      seconds.push((performance.now() - t) / 1000);
      translations.push(out ?? '');
    }
    score('node', from, to, {
      translations,
      seconds,
      loadSeconds,
      crossOriginIsolated: false,
    });
  }
}

async function browserRuns() {
  const outDir = buildHarness();
  const preview = await startPreview(outDir, 4205, '/e2e/harness/translation.html');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(0);
    await page.goto(`${preview.base}/e2e/harness/translation.html`);
    await page.waitForFunction(() => 'translationHarness' in window);
    for (const [from, to] of PAIRS) {
      const run: TranslationRun = {
        modelHost: `${preview.base}/hub/`,
        translationModel,
        texts: sequences.map((s) => rowsText(rows, s, from)),
        from,
        to,
      };
      const reply = (await page.evaluate(
        (r) => window.translationHarness.run(r),
        run,
      )) as TranslationReply;
      if (reply.type === 'error') throw new Error(reply.data.message);
      if (!reply.data.crossOriginIsolated)
        throw new Error('The harness page is not cross-origin isolated.');
      score('chromium', from, to, reply.data);
    }
  } finally {
    await browser.close();
    preview.stop();
  }
}

await nodeRuns();
if (!process.argv.includes('--node-only')) await browserRuns();
console.log(`${count} sequences of 3-10 rows a pair, one segment per call, ${translationModel}\n`);
console.log('| host | pair | word error | ms per segment (mean) | (median) | load (s) |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.host} | ${r.pair} | ${(100 * r.wer).toFixed(1)}% | ${r.meanMs.toFixed(1)} | ${r.medianMs.toFixed(1)} | ${r.loadSeconds.toFixed(2)} |`,
  );
}
