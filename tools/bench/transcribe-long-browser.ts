/**
 * Memory over a whole long transcription in Chromium: a generated mono mp3 (10 hours by
 * default) transcribed by the engine as the app runs it (media stage, VAD, recognition, the
 * decoded audio kept in the origin-private file system of a profile on disk), through the
 * recognition benchmark's harness page. Recognition uses the small test Whisper with forced
 * decoding (a fixed number of tokens per second of its windows), so that ten hours run in
 * minutes: what is measured is what the engine holds as the file goes on, not the model.
 * The renderer's resident size is sampled every 200 ms and each sample is filed under the hour
 * of audio recognition had reached (the end of the last segment posted). Prints one JSON line:
 * the peak of each hour, and the growth of the later hours' peak over the first hour's.
 * usage: tsx tools/bench/transcribe-long-browser.ts [--seconds 36000]
 *   [--model murmur-test/whisper-synth] [--tokens 3.5 (per second of windows)]
 *   [--timeline file.tsv (every sample: seconds, audio reached, stage, renderer MB)]
 *   [--stereo (the two-talker stereo mp3: its channels are recognised one after the other, so
 *   the second one's samples are filed under the last hour)]
 *   [--heaps 30 (every so many seconds, the JavaScript heap and array buffers of the page and of
 *   each worker, against the renderer's resident size: `worker-heaps.ts`)]
 */
import type { AsrBenchReply } from '../../e2e/harness/asr-protocol';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CACHE,
  PEAK_SLICE_SECONDS,
  hourlyPeaks,
  commandOption,
  longRunOptions,
  rssMb,
} from './bench-media';
import { writeBenchResult } from './bench-result';
import { watchWorkerHeaps } from './worker-heaps';
import { buildHarness, chromiumProcesses, launchChromiumProfile, startPreview } from './chromium';

const { seconds, stereo, modelId, tokens, media } = longRunOptions();
const timeline = commandOption('timeline');
const heapsEvery = Number(commandOption('heaps') ?? 0);
const HOUR = 3600;

console.error('Building the harness ...');
const preview = await startPreview(
  buildHarness(),
  Number(process.env.MURMUR_BENCH_PORT ?? 4176),
  '/e2e/harness/asr.html',
);
const browser = await launchChromiumProfile();
try {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(0);
  const heaps = heapsEvery > 0 ? await watchWorkerHeaps(browser.context, page) : null;
  await page.goto(`${preview.base}/e2e/harness/asr.html`);
  await page.waitForFunction(() => 'asrHarness' in window);
  // The harness takes the raw samples for the library's pipeline too: the engine needs none.
  const unused = join(CACHE, 'unused.f32');
  writeFileSync(unused, '');
  await page.getByTestId('harness.file').setInputFiles([media, unused]);

  let heard = 0;
  let stage: string | null = null;
  if (timeline) writeFileSync(timeline, 'seconds\theard_s\tstage\trenderer_mb\n');
  // The peak of each ten minutes of audio (for the log); each hour's is the highest of its six.
  const peakBySlice: number[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    const renderer = rendererMb();
    const slice = Math.floor(heard / PEAK_SLICE_SECONDS);
    peakBySlice[slice] = Math.max(peakBySlice[slice] ?? 0, renderer);
    if (timeline) {
      const at = ((Date.now() - started) / 1000).toFixed(1);
      appendFileSync(timeline, `${at}\t${heard}\t${stage}\t${Math.round(renderer)}\n`);
    }
  }, 200);
  const running = page.evaluate((o) => window.asrHarness.run(o), {
    contender: 'engine' as const,
    modelId,
    tokensPerSecond: tokens,
    tokensPerStreamSecond: tokens,
    tokensPerChunk: 0,
    threads: 2,
    provisional: true,
    reportProgress: true,
  }) as Promise<AsrBenchReply>;
  let done = false;
  void running.finally(() => (done = true));
  let lastHour = -1;
  let lastHeaps = Date.now();
  while (!done) {
    await Promise.race([running, new Promise((r) => setTimeout(r, 250))]).catch(() => undefined);
    if (done) break;
    ({ heardSeconds: heard, stage } = await page.evaluate(() => window.asrHarness.progress()));
    if (heaps && Date.now() - lastHeaps >= heapsEvery * 1000) {
      lastHeaps = Date.now();
      const contexts = await heaps.measure();
      const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
      const sum = contexts.reduce((n, c) => n + c.heapTotal + c.buffers, 0);
      console.error(
        `${Math.round((Date.now() - started) / 1000)} s, ${heard} s of audio: renderer ` +
          `${Math.round(rendererMb())} MB, V8 ${mb(sum)} MB (` +
          contexts
            .map(
              (c) =>
                `${c.name}: heap ${mb(c.heapUsed)}/${mb(c.heapTotal)}, buffers ${mb(c.buffers)}`,
            )
            .join('; ') +
          ')',
      );
    }
    const hour = Math.floor(heard / HOUR);
    if (hour !== lastHour) {
      lastHour = hour;
      console.error(
        `${Math.round((Date.now() - started) / 1000)} s: hour ${hour + 1} ` +
          `(peak of each ten minutes so far: ${peakBySlice.map((mb) => Math.round(mb ?? 0)).join(', ')} MB)`,
      );
    }
  }
  const reply = await running;
  clearInterval(sampler);
  console.error(
    `done: peak of each ten minutes ${peakBySlice.map((mb) => Math.round(mb ?? 0)).join(', ')} MB`,
  );
  if (reply.type === 'error') throw new Error(reply.data.message);
  const result = reply.data;
  const hours = hourlyPeaks(peakBySlice, seconds);
  const first = hours[0] ?? 0;
  const later = Math.max(0, ...hours.slice(1));
  const line = {
    host: 'chromium',
    file: media.split('/').pop(),
    model: modelId,
    duration_s: result.audioSeconds,
    total_s: +result.seconds.toFixed(1),
    total_x_realtime: +(result.audioSeconds / result.seconds).toFixed(1),
    segments: result.segments,
    stages: result.stages,
    peak_renderer_mb_by_hour: hours,
    first_hour_peak_mb: first,
    later_hours_peak_mb: later,
    growth_after_first_hour_mb: later - first,
  };
  console.log(JSON.stringify(line));
  writeBenchResult(import.meta.filename, {
    name: `transcribe-chromium-${stereo ? 'stereo' : 'mono'}-${seconds}s`,
    settings: { recording_s: Math.round(result.audioSeconds), runs: 1, model: modelId, tokens },
    figures: {
      'chromium.first_hour_peak_mb': first,
      'chromium.later_hours_peak_mb': later,
      'chromium.total_x_realtime': line.total_x_realtime,
    },
    ratios: { 'chromium.later_over_first_hour_peak': +(later / Math.max(1, first)).toFixed(3) },
    units: {
      'chromium.first_hour_peak_mb': 'MB (renderer)',
      'chromium.later_hours_peak_mb': 'MB (renderer)',
      'chromium.total_x_realtime': 'x real time',
    },
  });
} finally {
  await browser.close();
  preview.stop();
}

/** The largest renderer's resident size (the harness page's). */
function rendererMb(): number {
  let renderer = 0;
  for (const p of chromiumProcesses(process.pid)) {
    if (p.type === 'renderer') renderer = Math.max(renderer, rssMb(p.pid));
  }
  return renderer;
}
