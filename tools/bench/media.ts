/**
 * `npm run bench`: the media and speech stages' speed (x real time) and peak memory for
 * generated 1-hour and 2-hour stereo mp3s and a 10-hour mono one, in Node and in Chromium,
 * each run in a process of its own. Long channels are kept 16-bit in a scratch file (Node's
 * temporary folder, Chromium's origin-private file system), so memory should not grow with
 * the length.
 * usage: tsx tools/bench/media.ts [--seconds N] [--mono] (default: 3600 and 7200 stereo, then
 * 36000 mono)
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const arg = process.argv.indexOf('--seconds');
const runs: [number, boolean][] =
  arg > 0
    ? [[Number(process.argv[arg + 1]), process.argv.includes('--mono')]]
    : [
        [3600, false],
        [7200, false],
        [36000, true],
      ];
const here = import.meta.dirname;
const rows: Record<string, unknown>[] = [];
for (const [seconds, mono] of runs) {
  for (const script of ['media-node.ts', 'media-browser.ts']) {
    const args = [
      'tsx',
      join(here, script),
      '--seconds',
      String(seconds),
      ...(mono ? ['--mono'] : []),
    ];
    const out = execFileSync('npx', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    const line = out.trim().split('\n').pop() ?? '{}';
    rows.push({ ...(JSON.parse(line) as Record<string, unknown>), channels_in_file: mono ? 1 : 2 });
    console.log(line);
  }
}
console.log('');
console.table(
  rows.map((r) => ({
    host: r['host'],
    duration_s: r['duration_s'],
    channels: r['channels_in_file'],
    total_x_realtime: r['total_x_realtime'],
    peak_mb: r['peak_rss_mb'] ?? r['peak_renderer_rss_mb'],
  })),
);
