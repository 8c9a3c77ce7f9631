/**
 * How fast `murmur serve` answers while every slot transcribes: one long recording per slot
 * (a shared recording looped to --minutes, --channels 1 or 2), and meanwhile, every ~50 ms,
 * a /health, a request with a wrong key (401), one more transcription (429, the queue being
 * 0) and one whose declared body is larger than the upload limit (413). Prints each probe's
 * median, p99 and max latency, and the p99 and max of the server's own time for it (its log
 * line), the transcriptions' wall time and the server's peak resident memory (VmHWM, all its
 * threads).
 * usage: tsx tools/bench/serve-latency.ts [--concurrency 2] [--minutes 10] [--channels 1]
 *   [--source speech|noise (pink noise: decoded and searched for speech, little recognised)]
 *   [--no-probes (only the transcriptions and the memory)]
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINTS } from '../../src/core/contract/endpoints';
import { sharedMedia } from '../testing/ffmpeg-fixtures';
import { startServe } from '../testing/server/serve-process';
import { curl } from '../testing/server/curl';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const concurrency = Number(option('concurrency') ?? 2);
const minutes = Number(option('minutes') ?? 10);
const channels = Number(option('channels') ?? 1);
const source = option('source') ?? 'speech';
const probing = !process.argv.includes('--no-probes');
const KEY = 'bench-key';
const AUDIO = ENDPOINTS.audio.path;

const folder = mkdtempSync(join(tmpdir(), 'murmur-serve-latency-'));
const long = join(folder, `${source}-${minutes}min-${channels}ch.mp3`);
const input =
  source === 'noise'
    ? ['-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.05:sample_rate=16000']
    : ['-stream_loop', '-1', '-i', sharedMedia('speech/beckett.wav')];
execFileSync('ffmpeg', [
  '-v',
  'error',
  ...input,
  '-t',
  String(minutes * 60),
  '-ac',
  String(channels),
  '-ar',
  '16000',
  '-c:a',
  'libmp3lame',
  '-b:a',
  '32k',
  long,
]);
const bytes = readFileSync(long);

const server = await startServe(
  [
    '--concurrency',
    String(concurrency),
    '--queue',
    '0',
    '--max-duration-minutes',
    String(Math.ceil(minutes) + 1),
    '--max-upload-mb',
    String(Math.ceil(bytes.length / 1024 / 1024) + 1),
    '--max-channels',
    String(channels),
  ],
  { MURMUR_SERVICE_KEYS: KEY },
);

/**
 * A transcription through curl: Node's fetch gives up on an answer that takes more than 300 s
 * to start, and a long recording on a busy machine takes longer.
 */
const transcribe = async (key: string, body: Uint8Array, name: string) => {
  const path = join(folder, `upload-${name}`);
  writeFileSync(path, body);
  const answer = await curl([
    '-H',
    `x-service-key: ${key}`,
    '-F',
    `audio=@${path};filename=${name}`,
    `${server.url}${AUDIO}`,
  ]);
  return answer.status;
};

/**
 * A transcription request without its body: it is answered (401, 429) before any is read, and
 * a client still sending one would meet the closed connection instead of the answer.
 */
const refused = async (key: string) => {
  const answer = await fetch(`${server.url}${AUDIO}`, {
    method: 'POST',
    headers: { 'x-service-key': key, 'content-type': 'multipart/form-data; boundary=b0' },
  });
  await answer.arrayBuffer();
  return answer.status;
};

/**
 * A transcription request that declares a body larger than the upload limit and sends none of
 * it: it is answered (413) from its headers.
 */
const oversized = () =>
  new Promise<number>((resolve, reject) => {
    const asking = request(`${server.url}${AUDIO}`, {
      method: 'POST',
      headers: {
        'x-service-key': KEY,
        'content-type': 'multipart/form-data; boundary=b0',
        'content-length': String(bytes.length * 100),
      },
    });
    asking.on('response', (answer) => {
      answer.resume();
      answer.on('end', () => {
        resolve(answer.statusCode ?? 0);
        asking.destroy();
      });
    });
    asking.on('error', reject);
    asking.flushHeaders();
  });

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/** Times one probe; false when a slot came free under it (the request was let in: 422). */
const timed = async (expected: number, ask: () => Promise<number>, into: number[]) => {
  const started = performance.now();
  const status = await ask();
  if (status === 422 && expected === 429) return false;
  if (status !== expected) throw new Error(`A probe answered ${status}, not ${expected}.`);
  into.push(performance.now() - started);
  return true;
};

try {
  const small = readFileSync(sharedMedia('speech/jfk.wav'));
  // The first transcriptions of a process pay for compiling the runtime's kernels: not counted.
  for (let i = 0; i < concurrency; i++) {
    if ((await transcribe(KEY, small, 'jfk.wav')) !== 200) throw new Error('Warm-up failed.');
  }
  const probes = {
    health: [] as number[],
    '401': [] as number[],
    '413': [] as number[],
    '429': [] as number[],
  };
  const started = performance.now();
  const running = Array.from({ length: concurrency }, () =>
    transcribe(KEY, bytes, 'long.mp3').then((status) => {
      if (status !== 200) throw new Error(`A long transcription answered ${status}.`);
      return (performance.now() - started) / 1000;
    }),
  );
  // Probed while every slot is taken: until the first transcription ends.
  let done = false;
  void Promise.race(running)
    .finally(() => (done = true))
    .catch(() => undefined);
  const all = Promise.all(running);
  all.catch(() => undefined);
  while (probing && !done) {
    const health = (await (await fetch(`${server.url}/health`)).json()) as { running: number };
    if (health.running === concurrency) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  while (probing && !done) {
    await timed(200, async () => (await fetch(`${server.url}/health`)).status, probes.health);
    await timed(401, () => refused('wrong-key'), probes['401']);
    await timed(413, oversized, probes['413']);
    if (done || !(await timed(429, () => refused(KEY), probes['429']))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = await all;
  const peakKb = Number(
    /VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${server.child.pid}/status`, 'utf8'))?.[1],
  );
  console.log(
    `${concurrency} x ${minutes} min of ${source} (${channels} ch) transcribed in ${seconds.map((s) => s.toFixed(0)).join(', ')} s; server peak RSS ${(peakKb / 1024).toFixed(0)} MB`,
  );
  for (const [name, list] of Object.entries(probes)) {
    if (list.length === 0) continue;
    const sorted = list.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(6)} ${sorted.length} probes: median ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
  }
  // The server's own time for each (its log line: from the request's headers to its answer);
  // what the client saw beyond it was spent before the server's thread took the request up.
  const own: Record<string, number[]> = { health: [], '401': [], '413': [], '429': [] };
  for (const line of server.logs()) {
    if (line.msg !== 'request') continue;
    const name = line.path === '/health' ? 'health' : String(line.status);
    own[name]?.push(Number(line.seconds) * 1000);
  }
  for (const [name, list] of Object.entries(own)) {
    if (list.length === 0) continue;
    const sorted = list.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(6)} server's own time: p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
  }
} finally {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
}
