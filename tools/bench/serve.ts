/**
 * Load benchmark of `murmur serve`: a closed loop of clients, as many as the server runs at
 * once, each POSTing short recordings one after another; requests per minute, p50 and p95
 * latency, and the server's peak resident memory (VmHWM), at --concurrency 1 and 2.
 * usage: tsx tools/bench/serve.ts [--requests 20] [--concurrency 1,2]
 *   [--model murmur-test/whisper-synth (a model in .models/)]
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { sharedMedia } from '../testing/ffmpeg-fixtures';
import { startServe } from '../testing/server/serve-process';
import { writeBenchResult } from './bench-result';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const requests = Number(option('requests') ?? 20);
const levels = (option('concurrency') ?? '1,2').split(',').map(Number);
const model = option('model');

/** Short real recordings, 2.9 to 11 s (mean 6.9 s), sent in turn. */
const FILES = [
  'speech/jfk.wav',
  'speech/LDC93S1.wav',
  'speech/beckett.wav',
  'speech/new-home-in-the-stars-16k.wav',
].map(sharedMedia);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

async function peakKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

async function level(concurrency: number) {
  const server = await startServe([
    '--no-auth',
    '--concurrency',
    String(concurrency),
    '--queue',
    String(requests),
    ...(model ? ['--model', model] : []),
  ]);
  const bodies = await Promise.all(
    FILES.map(async (f) => [basename(f), await readFile(f)] as const),
  );
  const send = async (i: number) => {
    const [name, bytes] = bodies[i % bodies.length]!;
    const form = new FormData();
    form.set('audio', new Blob([bytes]), name);
    const started = performance.now();
    const answer = await fetch(`${server.url}/audio/text/audio-transcription/`, {
      method: 'POST',
      body: form,
    });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`Request ${i} answered ${answer.status}.`);
    return (performance.now() - started) / 1000;
  };
  try {
    // The first requests of a process pay for compiling the runtime's kernels: not counted.
    for (let i = 0; i < concurrency * 2; i++) await send(i);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests) latencies.push(await send(next++));
      }),
    );
    const wall = (performance.now() - started) / 1000;
    const sorted = latencies.sort((a, b) => a - b);
    return {
      concurrency,
      perMinute: (requests / wall) * 60,
      p50: quantile(sorted, 0.5),
      p95: quantile(sorted, 0.95),
      peakMb: (await peakKb(server.child.pid!)) / 1024,
    };
  } finally {
    await server.stop();
  }
}

const rows = [];
for (const c of levels) {
  const row = await level(c);
  rows.push(row);
  console.log(
    `concurrency ${row.concurrency}: ${row.perMinute.toFixed(1)} requests/min, p50 ${row.p50.toFixed(2)} s, p95 ${row.p95.toFixed(2)} s, peak ${row.peakMb.toFixed(0)} MB`,
  );
}
console.log('\n| concurrency | requests / min | p50 latency | p95 latency | peak memory |');
console.log('| ----------- | -------------- | ----------- | ----------- | ----------- |');
for (const r of rows) {
  console.log(
    `| ${r.concurrency} | ${r.perMinute.toFixed(1)} | ${r.p50.toFixed(2)} s | ${r.p95.toFixed(2)} s | ${r.peakMb.toFixed(0)} MB |`,
  );
}
if (rows.length > 1) {
  console.log(
    `\nthroughput at ${rows.at(-1)!.concurrency} / at ${rows[0]!.concurrency}: ${(rows.at(-1)!.perMinute / rows[0]!.perMinute).toFixed(2)}x`,
  );
}

const figures: Record<string, number> = {};
const units: Record<string, string> = {};
for (const r of rows) {
  const at = `node.c${r.concurrency}`;
  Object.assign(figures, {
    [`${at}.per_minute`]: r.perMinute,
    [`${at}.p50_s`]: r.p50,
    [`${at}.p95_s`]: r.p95,
    [`${at}.peak_mb`]: r.peakMb,
  });
  Object.assign(units, {
    [`${at}.per_minute`]: 'requests / min',
    [`${at}.p50_s`]: 's',
    [`${at}.p95_s`]: 's',
    [`${at}.peak_mb`]: 'MB (VmHWM)',
  });
}
writeBenchResult(import.meta.filename, {
  name: 'serve',
  settings: {
    model: model ?? 'murmur-test/whisper-synth',
    requests,
    concurrency: levels.join(','),
  },
  figures,
  ratios: rows.length > 1 ? { 'node.throughput': rows.at(-1)!.perMinute / rows[0]!.perMinute } : {},
  units,
});
