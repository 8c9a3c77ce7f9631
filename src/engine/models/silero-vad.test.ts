import { execFileSync } from 'node:child_process';
import { compactPcm } from '../../core/audio/pcm';
import { beforeAll, describe, expect, it } from 'vitest';
import { speechRegions } from '../../core/audio/speech-regions';
import { DEFAULT_LAYOUT, loadSileroVad, VAD_WINDOW, type StreamLayout } from './silero-vad';
import {
  sharedMedia,
  testModelFiles,
  TEST_VAD_MODEL_ID,
} from '../../../tools/testing/ffmpeg-fixtures';
import { nodeOnnxRuntime } from '../../hosts/node/onnx-runtime';

const onnx = nodeOnnxRuntime();
const models = testModelFiles();
const ONE_PASS: StreamLayout = { streamSeconds: Infinity, maxStreams: 1, warmupWindows: 0 };

function decode(path: string): Float32Array {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'quiet', '-i', path, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'],
    { maxBuffer: 1 << 28 },
  );
  return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4).slice();
}

const scores = async (samples: Float32Array, layout: StreamLayout) =>
  (await loadSileroVad(onnx, models, { modelId: TEST_VAD_MODEL_ID, layout })).probabilities(
    samples,
  );

describe('Silero VAD over a long channel in batched streams', () => {
  // 60 s of speech in several languages with pauses: seven 8-s streams.
  let samples: Float32Array;
  let whole: Float32Array;
  beforeAll(async () => {
    samples = decode(sharedMedia('speech/multilingual.mp3'));
    whole = await scores(samples, ONE_PASS);
  });

  it('scores each stream as a fresh pass from its warm-up would', async () => {
    // 8-s streams (250 windows) at fixed times, up to 3 side by side, 32 windows of warm-up.
    const layout: StreamLayout = { streamSeconds: 8, maxStreams: 3, warmupWindows: 32 };
    const batched = await scores(samples, layout);
    const windows = batched.length;
    expect(windows).toBeGreaterThan(5 * 250);
    for (let first = 0; first < windows; first += 250) {
      const last = Math.min(windows, first + 250);
      const from = Math.max(0, first - 32);
      const alone = await scores(samples.subarray(from * VAD_WINDOW, last * VAD_WINDOW), ONE_PASS);
      for (let w = first; w < last; w++) expect(batched[w]).toBeCloseTo(alone[w - from]!, 4);
    }
    // The first stream starts where one pass starts: identical until the first cut.
    for (let w = 0; w < 250; w++) expect(batched[w]).toBeCloseTo(whole[w]!, 4);
  });

  it('brings quiet audio up before scoring, and reads 16-bit channels as floats', async () => {
    // A far-field meeting at about -41 dBFS: brought up, more of it scores as speech.
    const meeting = decode(sharedMedia('diarization/dev00.wav'));
    const level = await loadSileroVad(onnx, models, { modelId: TEST_VAD_MODEL_ID });
    const asIs = await loadSileroVad(onnx, models, { modelId: TEST_VAD_MODEL_ID, level: null });
    const mean = (p: Float32Array) => p.reduce((sum, x) => sum + x, 0) / p.length;
    const raised = mean(await level.probabilities(meeting));
    const plain = mean(await asIs.probabilities(meeting));
    expect(raised).toBeGreaterThan(plain + 0.02);
    // Loud audio is left (nearly: a stream with a long pause is raised a little) as it is.
    const loud = await level.probabilities(samples);
    const untouched = await asIs.probabilities(samples);
    for (let w = 0; w < loud.length; w += 50) expect(loud[w]).toBeCloseTo(untouched[w]!, 2);
    const compact = await level.probabilities(compactPcm(samples));
    let worst = 0;
    for (let w = 0; w < loud.length; w++) worst = Math.max(worst, Math.abs(compact[w]! - loud[w]!));
    expect(worst).toBeLessThan(0.05);
  });

  it('scores any piece of a channel as scoring it whole does', async () => {
    const detector = await loadSileroVad(onnx, models, { modelId: TEST_VAD_MODEL_ID });
    const all = await detector.probabilities(samples);
    expect(detector.streamWindows).toBe(250);
    const pieces = [
      [0, 500],
      [500, 1000],
      [1000, all.length],
      [620, 1333],
    ] as const;
    for (const [from, to] of pieces) {
      const piece = await detector.probabilities(samples, { from, to });
      expect(piece).toHaveLength(to - from);
      for (let w = from; w < to; w++) expect(piece[w - from]).toBeCloseTo(all[w]!, 5);
    }
  });

  it('finds the same speech as one unbroken pass, within 2% of the time', async () => {
    const duration = samples.length / 16000;
    const grid = (probabilities: Float32Array) => {
      const cells = new Uint8Array(Math.ceil(duration * 100));
      for (const r of speechRegions(probabilities, duration)) {
        cells.fill(1, Math.floor(r.start * 100), Math.ceil(r.end * 100));
      }
      return cells;
    };
    const a = grid(whole);
    const b = grid(await scores(samples, DEFAULT_LAYOUT));
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing++;
    expect(a.reduce((n, x) => n + x, 0) / 100).toBeGreaterThan(30);
    expect(differing / a.length).toBeLessThan(0.02);
  });
});
