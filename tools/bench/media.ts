/**
 * `npm run bench`: the media and speech stages' speed (x real time) and peak memory for
 * generated 1-hour and 2-hour stereo mp3s, in Node and in Chromium, each run in a process of
 * its own. Long channels are kept 16-bit (the media settings' `compactFromSeconds`), so
 * memory should grow by about 230 MB an hour of stereo, and two hours stay under 1 GB in
 * Chromium's renderer.
 * usage: tsx tools/bench/media.ts [--seconds N] (default: 3600, then 7200)
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const arg = process.argv.indexOf('--seconds');
const lengths = arg > 0 ? [Number(process.argv[arg + 1])] : [3600, 7200];
const here = import.meta.dirname;
const rows: Record<string, unknown>[] = [];
for (const seconds of lengths) {
  for (const script of ['media-node.ts', 'media-browser.ts']) {
    const out = execFileSync('npx', ['tsx', join(here, script), '--seconds', String(seconds)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    const line = out.trim().split('\n').pop() ?? '{}';
    rows.push(JSON.parse(line) as Record<string, unknown>);
    console.log(line);
  }
}
console.log('');
console.table(
  rows.map((r) => ({
    host: r['host'],
    duration_s: r['duration_s'],
    total_x_realtime: r['total_x_realtime'],
    peak_mb: r['peak_rss_mb'] ?? r['peak_renderer_rss_mb'],
  })),
);
