/**
 * Decoding speed and peak memory of the media stage in Chromium for a generated 1-hour stereo
 * recording, through the same harness page the browser tests use (built into
 * a temporary folder with MURMUR_HARNESS=1 and served by `vite preview` with cross-origin
 * isolation). Memory is the resident size of Chromium's processes, sampled from /proc: the
 * renderer that runs the page and its workers (ffmpeg's worker included) is what must stay
 * under 1 GB. Prints one JSON line (read by `media.ts`).
 * usage: tsx tools/bench/media-browser.ts [--seconds 3600]
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from '@playwright/test';
import type { HarnessReply } from '../../e2e/harness/media-protocol';
import { REPO, SHARED, longStereoMp3, rssMb } from './bench-media';

const arg = process.argv.indexOf('--seconds');
const seconds = arg > 0 ? Number(process.argv[arg + 1]) : 3600;
const port = 4175;
const media = longStereoMp3(seconds);

const vad = join(REPO, '.models', 'murmur-test', 'silero-vad', 'onnx', 'model.onnx');
if (!existsSync(vad)) {
  mkdirSync(dirname(vad), { recursive: true });
  copyFileSync(join(SHARED, 'models', 'silero-vad', 'silero_vad.onnx'), vad);
}
// Outside the repository, so that linters never see the built files.
const outDir = join(tmpdir(), 'murmur-bench-dist');
console.error('Building the harness ...');
execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
  cwd: REPO,
  env: { ...process.env, MURMUR_HARNESS: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const server = spawn(
  'npx',
  [
    'vite',
    'preview',
    '--outDir',
    outDir,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--strictPort',
  ],
  { cwd: REPO, stdio: 'ignore', detached: true },
);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/e2e/harness/media.html`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 120) throw new Error('vite preview did not start');
  await new Promise((r) => setTimeout(r, 500));
}

/** Chromium's processes: every descendant of this process. */
function descendants(root: number): { pid: number; renderer: boolean; type: string }[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const out: { pid: number; renderer: boolean; type: string }[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      // Only Chromium's processes (not the preview server this script also started).
      if (!/chrom/i.test(cmdline.split('\0')[0] ?? '')) continue;
      const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
      out.push({ pid: child, renderer: type === 'renderer', type: `${type}:${child}` });
      walk(child);
    }
  };
  walk(root);
  return out;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-sync',
  ],
});
let peakRenderer = 0;
let peakTotal = 0;
const peakByProcess = new Map<string, number>();
try {
  const page = await browser.newPage();
  await page.goto(`${base}/e2e/harness/media.html`);
  await page.waitForFunction(() => 'mediaHarness' in window);
  await page.getByTestId('harness.file').setInputFiles(media);
  const sampler = setInterval(() => {
    const processes = descendants(process.pid);
    let total = 0;
    for (const p of processes) {
      const rss = rssMb(p.pid);
      total += rss;
      peakByProcess.set(p.type, Math.max(peakByProcess.get(p.type) ?? 0, rss));
      if (p.renderer) peakRenderer = Math.max(peakRenderer, rss);
    }
    peakTotal = Math.max(peakTotal, total);
  }, 200);
  page.setDefaultTimeout(0);
  const reply = (await page.evaluate(() => window.mediaHarness.prepare({}))) as HarnessReply;
  clearInterval(sampler);
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  const s = reply.summary;
  const duration = s.file.duration;
  console.log(
    JSON.stringify({
      host: 'chromium',
      file: `${media.split('/').pop()}`,
      duration_s: duration,
      audio_conversion_time_s: +s.timings.audio_conversion_time.toFixed(2),
      decode_x_realtime: +(duration / s.timings.audio_conversion_time).toFixed(1),
      vad_time_s: +s.timings.vad_time.toFixed(2),
      vad_x_realtime_per_channel: +((duration * s.file.nb_channels) / s.timings.vad_time).toFixed(
        1,
      ),
      total_s: +s.wallSeconds.toFixed(2),
      total_x_realtime: +(duration / s.wallSeconds).toFixed(1),
      peak_renderer_rss_mb: Math.round(peakRenderer),
      peak_all_chromium_rss_mb: Math.round(peakTotal),
      peak_rss_mb_by_process: Object.fromEntries(
        [...peakByProcess].filter(([, mb]) => mb > 20).map(([k, mb]) => [k, Math.round(mb)]),
      ),
      channels: s.channels.length,
      billing: s.billing.map((b) => `${b.channel}:${b.reason}:${b.billable_seconds}`).join(' '),
    }),
  );
} finally {
  await browser.close();
  if (server.pid !== undefined) process.kill(-server.pid);
}
