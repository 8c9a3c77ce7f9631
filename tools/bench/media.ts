/**
 * `npm run bench`: the media stage's decoding speed (x real time) and peak memory for a
 * generated 1-hour stereo mp3, in Node and in Chromium, each in a process of its own.
 * usage: tsx tools/bench/media.ts [--seconds 3600]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const passOn = process.argv.slice(2);
const here = import.meta.dirname;
const rows: Record<string, unknown>[] = [];
for (const script of ['media-node.ts', 'media-browser.ts']) {
  const out = execFileSync('npx', ['tsx', join(here, script), ...passOn], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  const line = out.trim().split('\n').pop() ?? '{}';
  rows.push(JSON.parse(line) as Record<string, unknown>);
  console.log(line);
}
console.log('');
console.table(rows);
