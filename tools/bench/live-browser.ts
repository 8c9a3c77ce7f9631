/**
 * Live captions benchmark in Chromium: generated phrases with pauses, their sound's start and
 * end known to the sample, fed to the app's transcription worker chunk by chunk as a recorder
 * would (WASM, the test recogniser), through the page's own `TranscriptionClient.listen`.
 * Prints, over the phrases:
 * - caption latency: from the end of a phrase's sound to its words on screen (provisional or
 *   settled) and to its settled line, p50 and p90, fed at real time;
 * - the worker's share of real time: the same audio fed as fast as the worker takes it;
 * - the renderer's memory over a long session fed faster than real time, at each quarter.
 * usage: npm run bench:live (after live.ts), or
 *   npx tsx tools/bench/live-browser.ts [--phrases 24] [--chunk 0.25] [--long-minutes 20]
 *   [--long-speed 6] [--model murmur-test/whisper-synth]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveRunResult } from '../../e2e/harness/live-harness';
import { HELD_OUT, pcm16k, sentence, speak } from '../testing/speech';
import { CACHE } from './bench-media';
import { buildHarness, chromiumProcesses, launchChromium, startPreview } from './chromium';
import { rssMb } from './bench-media';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const phraseCount = Number(option('phrases', '24'));
const chunkSeconds = Number(option('chunk', '0.25'));
const longMinutes = Number(option('long-minutes', '20'));
const longSpeed = Number(option('long-speed', '6'));
const whisperModel = option('model', 'murmur-test/whisper-synth');
const SAMPLE_RATE = 16_000;

interface Phrase {
  text: string;
  start: number;
  end: number;
}

/** Phrases of 3-8 words, each by another held-out voice, with pauses of 0.9-2.1 s. */
function phrases(dir: string): { audio: Float32Array; phrases: Phrase[] } {
  const pieces: Float32Array[] = [new Float32Array(SAMPLE_RATE)];
  const out: Phrase[] = [];
  let at = SAMPLE_RATE;
  for (let i = 0; i < phraseCount; i++) {
    const text = sentence('en', 7000 + i, 3 + (i % 6));
    const voice = {
      variant: HELD_OUT.variants[i % HELD_OUT.variants.length]!,
      speed: HELD_OUT.speeds[i % HELD_OUT.speeds.length]!,
      pitch: HELD_OUT.pitches[i % HELD_OUT.pitches.length]!,
    };
    const samples = pcm16k(speak('en', text, voice, join(dir, `phrase-${i}.wav`)));
    // The phrase's sound: from its first to its last sample above -40 dBFS.
    let first = samples.findIndex((v) => Math.abs(v) > 0.01);
    let last = samples.length - 1;
    while (last > 0 && Math.abs(samples[last]!) <= 0.01) last--;
    if (first < 0) first = 0;
    out.push({ text, start: (at + first) / SAMPLE_RATE, end: (at + last + 1) / SAMPLE_RATE });
    const pause = new Float32Array(Math.round((0.9 + ((i * 7) % 13) / 10) * SAMPLE_RATE));
    pieces.push(samples, pause);
    at += samples.length + pause.length;
  }
  const audio = new Float32Array(at);
  let o = 0;
  for (const p of pieces) {
    audio.set(p, o);
    o += p.length;
  }
  return { audio, phrases: out };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const overlaps = (l: { start: number; end: number }, p: Phrase) =>
  l.start < p.end && l.end > p.start;

/** When each phrase's words were first shown, and when its settled line came (wall seconds). */
function latencies(result: LiveRunResult, list: Phrase[]) {
  const shown: number[] = [];
  const settled: number[] = [];
  let missed = 0;
  for (const p of list) {
    let seen: number | null = null;
    let done: number | null = null;
    const lines: { start: number; end: number }[] = [];
    for (const u of result.updates) {
      lines.push(...u.settled);
      const now = [...lines, ...u.provisional.filter((l) => l !== null)];
      if (seen === null && now.some((l) => overlaps(l, p))) seen = u.wall;
      if (done === null && lines.some((l) => overlaps(l, p))) done = u.wall;
      if (done !== null) break;
    }
    if (done === null) missed++;
    else settled.push(done - p.end);
    if (seen !== null) shown.push(seen - p.end);
  }
  return { shown, settled, missed };
}

const dir = join(CACHE, 'live');
mkdirSync(dir, { recursive: true });
const { audio, phrases: list } = phrases(dir);
const pcmPath = join(dir, 'phrases.f32');
writeFileSync(pcmPath, new Uint8Array(audio.buffer));
const longPath = join(dir, `long-${longMinutes}min.f32`);
const loops = Math.ceil((longMinutes * 60) / (audio.length / SAMPLE_RATE));
// The phrases again and again: written with the shell so that the script never holds them all.
execFileSync('bash', [
  '-c',
  `: > "${longPath}"; for i in $(seq ${loops}); do cat "${pcmPath}" >> "${longPath}"; done`,
]);
console.error(
  `${list.length} phrases in ${(audio.length / SAMPLE_RATE).toFixed(1)} s; long session ` +
    `${((loops * audio.length) / SAMPLE_RATE / 60).toFixed(1)} min at ${longSpeed}x.`,
);

const outDir = buildHarness();
const preview = await startPreview(outDir, 4177, '/e2e/harness/live.html');
const browser = await launchChromium();
try {
  const runOnce = async (path: string, speed: number, onSample?: () => void) => {
    const page = await browser.newPage();
    page.setDefaultTimeout(0);
    await page.goto(`${preview.base}/e2e/harness/live.html`);
    await page.waitForFunction(() => 'liveHarness' in window);
    await page.getByTestId('harness.file').setInputFiles(path);
    const timer = onSample ? setInterval(onSample, 1000) : null;
    try {
      const result = await page.evaluate((o) => window.liveHarness.run(o), {
        modelHost: '/hub/',
        whisperModel,
        chunkSeconds,
        speed,
      });
      if (result.error) throw new Error(result.error);
      return result;
    } finally {
      if (timer) clearInterval(timer);
      await page.close();
    }
  };

  // A first run loads the models into the browser's cache; it is not counted.
  await runOnce(pcmPath, 0);
  const realTime = await runOnce(pcmPath, 1);
  const fast = await runOnce(pcmPath, 0);
  const { shown, settled, missed } = latencies(realTime, list);
  const renderer = () =>
    chromiumProcesses(process.pid)
      .filter((p) => p.type === 'renderer')
      .reduce((sum, p) => sum + rssMb(p.pid), 0);
  const samples: number[] = [];
  const long = await runOnce(longPath, longSpeed, () => samples.push(renderer()));
  const quarter = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  const lines = long.updates.reduce((n, u) => n + u.settled.length, 0);

  const f = (v: number) => v.toFixed(2);
  console.log('\n| measure | value |\n| --- | --- |');
  console.log(`| phrases | ${list.length}, ${missed} with no settled line |`);
  console.log(
    `| words shown after the phrase ends, p50 / p90 | ${f(percentile(shown, 50))} s / ${f(percentile(shown, 90))} s |`,
  );
  console.log(
    `| settled line after the phrase ends, p50 / p90 | ${f(percentile(settled, 50))} s / ${f(percentile(settled, 90))} s |`,
  );
  console.log(
    `| worker's share of real time (fed at once) | ${f(fast.wallSeconds / fast.audioSeconds)} |`,
  );
  console.log(
    `| long session: ${(long.audioSeconds / 60).toFixed(1)} min at ${longSpeed}x, settled lines | ${lines} (${loops * list.length} phrases) |`,
  );
  console.log(
    `| renderer memory at 1/4, 1/2, 3/4, end of it | ${[0.25, 0.5, 0.75, 0.999].map((q) => quarter(q).toFixed(0)).join(' / ')} MB |`,
  );
} finally {
  await browser.close();
  preview.stop();
}
