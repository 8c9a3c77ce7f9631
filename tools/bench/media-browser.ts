/**
 * Decoding speed and peak memory of the media stage in Chromium for a generated 1-hour stereo
 * recording, through the same harness page the browser tests use (built into
 * a temporary folder with MURMUR_HARNESS=1 and served by `vite preview` with cross-origin
 * isolation). Memory is the resident size of Chromium's processes, sampled from /proc: the
 * renderer that runs the page and its workers (ffmpeg's worker included) is what must stay
 * under 1 GB. Prints one JSON line (read by `media.ts`).
 * usage: tsx tools/bench/media-browser.ts [--seconds 3600] [--in-memory] [--mono]
 *   [--breakdown (every 30 s, the page's and each worker's memory as Chromium attributes it,
 *   measureUserAgentSpecificMemory, to stderr)]
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import type { HarnessReply } from '../../e2e/harness/media-protocol';
import { REPO, SHARED, longMonoMp3, longStereoMp3 } from './bench-media';
import { writeBenchResult } from './bench-result';
import {
  buildHarness,
  launchChromiumProfile,
  sampleChromiumMemory,
  startPreview,
} from './chromium';

const arg = process.argv.indexOf('--seconds');
const seconds = arg > 0 ? Number(process.argv[arg + 1]) : 3600;
// The decoded channels in memory rather than in the origin-private file system (as before).
const inMemory = process.argv.includes('--in-memory');
// One talker on one channel (for 10 hours) rather than the stereo recording.
const mono = process.argv.includes('--mono');
// Another port than the browser tests' (MURMUR_E2E_PORT), so both can run at once.
const port = Number(process.env.MURMUR_BENCH_PORT ?? 4175);
const media = mono ? longMonoMp3(seconds) : longStereoMp3(seconds);

const vad = join(REPO, '.models', 'murmur-test', 'silero-vad', 'onnx', 'model.onnx');
if (!existsSync(vad)) {
  mkdirSync(dirname(vad), { recursive: true });
  copyFileSync(join(SHARED, 'models', 'silero-vad', 'silero_vad.onnx'), vad);
}
/**
 * Every 30 s until `until` settles: the bytes Chromium attributes to the page and to each of
 * its workers (by script), printed as one line to stderr.
 */
async function memoryBreakdown(page: Page, until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  const started = Date.now();
  while (!done) {
    const rows = await page.evaluate(async () => {
      const result = await (
        performance as unknown as {
          measureUserAgentSpecificMemory(): Promise<{
            breakdown: { bytes: number; attribution: { url: string; scope: string }[] }[];
          }>;
        }
      ).measureUserAgentSpecificMemory();
      const byScript: Record<string, number> = {};
      for (const entry of result.breakdown) {
        const who =
          entry.attribution.map((a) => a.url.split('/').pop() || a.scope).join('+') || 'shared';
        byScript[who] = (byScript[who] ?? 0) + entry.bytes;
      }
      return byScript;
    });
    const mb = Object.entries(rows)
      .filter(([, bytes]) => bytes > 1e6)
      .map(([who, bytes]) => `${who} ${Math.round(bytes / 1e6)} MB`)
      .join(', ');
    console.error(`${Math.round((Date.now() - started) / 1000)} s: ${mb}`);
    await Promise.race([until, new Promise((r) => setTimeout(r, 30_000))]).catch(() => undefined);
  }
}

console.error('Building the harness ...');
const preview = await startPreview(buildHarness(), port, '/e2e/harness/media.html');
const base = preview.base;
const browser = await launchChromiumProfile();
try {
  const page = await browser.context.newPage();
  await page.goto(`${base}/e2e/harness/media.html`);
  await page.waitForFunction(() => 'mediaHarness' in window);
  await page.getByTestId('harness.file').setInputFiles(media);
  const memory = sampleChromiumMemory();
  page.setDefaultTimeout(0);
  const running = page.evaluate(
    (keep) => window.mediaHarness.prepare({ spill: !keep }),
    inMemory,
  ) as Promise<HarnessReply>;
  const breakdown = process.argv.includes('--breakdown') ? memoryBreakdown(page, running) : null;
  const reply = await running;
  await breakdown;
  const { peakRendererMb: peakRenderer, peakTotalMb: peakTotal, peakByProcess } = memory.stop();
  if (reply.type === 'error') throw new Error(`${reply.data.code}: ${reply.data.message}`);
  const s = reply.data;
  const duration = s.file.duration;
  const line = {
    host: 'chromium',
    kept: inMemory ? 'memory' : 'scratch file',
    file: `${media.split('/').pop()}`,
    duration_s: duration,
    audio_conversion_time_s: +s.timings.audio_conversion_time.toFixed(2),
    decode_x_realtime: +(duration / s.timings.audio_conversion_time).toFixed(1),
    vad_time_s: +s.timings.vad_time.toFixed(2),
    vad_x_realtime_per_channel: +((duration * s.file.nb_channels) / s.timings.vad_time).toFixed(1),
    total_s: +s.wallSeconds.toFixed(2),
    total_x_realtime: +(duration / s.wallSeconds).toFixed(1),
    peak_renderer_rss_mb: Math.round(peakRenderer),
    peak_all_chromium_rss_mb: Math.round(peakTotal),
    peak_rss_mb_by_process: Object.fromEntries(
      [...peakByProcess].filter(([, mb]) => mb > 20).map(([k, mb]) => [k, Math.round(mb)]),
    ),
    channels: s.channels.length,
    billing: s.billing.map((b) => `${b.channel}:${b.reason}:${b.billable_seconds}`).join(' '),
  };
  console.log(JSON.stringify(line));
  writeBenchResult(import.meta.filename, {
    name: `media-chromium-${mono ? 'mono-' : ''}${seconds}s${inMemory ? '-in-memory' : ''}`,
    settings: { recording_s: Math.round(duration), runs: 1 },
    figures: {
      'chromium.total_x_realtime': line.total_x_realtime,
      'chromium.decode_x_realtime': line.decode_x_realtime,
      'chromium.peak_mb': line.peak_renderer_rss_mb,
    },
    ratios: {},
    units: {
      'chromium.total_x_realtime': 'x real time',
      'chromium.decode_x_realtime': 'x real time',
      'chromium.peak_mb': 'MB (renderer)',
    },
  });
} finally {
  await browser.close();
  preview.stop();
}
