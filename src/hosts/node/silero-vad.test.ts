import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { speechRegions } from '../../core/audio/speech-regions';
import {
  DEFAULT_LAYOUT,
  loadSileroVad,
  VAD_WINDOW,
  type StreamLayout,
} from '../../engine/media/silero-vad';
import { sharedMedia, testModelFiles, TEST_VAD_MODEL_ID } from './ffmpeg-fixtures';
import { nodeOnnxRuntime } from './onnx-runtime';

const onnx = nodeOnnxRuntime();
const models = testModelFiles();
const ONE_PASS: StreamLayout = { minStreamSeconds: Infinity, maxStreams: 1, warmupWindows: 0 };

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
    const layout: StreamLayout = { minStreamSeconds: 8, maxStreams: 64, warmupWindows: 32 };
    const batched = await scores(samples, layout);
    const windows = batched.length;
    const streams = Math.floor(samples.length / (8 * 16000));
    const perStream = Math.ceil(windows / streams);
    expect(streams).toBeGreaterThan(4);
    for (let s = 0; s < streams; s++) {
      const first = s * perStream;
      const last = Math.min(windows, first + perStream);
      const from = Math.max(0, first - (s === 0 ? 0 : 32));
      const alone = await scores(samples.subarray(from * VAD_WINDOW, last * VAD_WINDOW), ONE_PASS);
      for (let w = first; w < last; w++) {
        expect(batched[w]).toBeCloseTo(alone[w - from]!, 4);
      }
    }
    // The first stream starts where one pass starts: identical until the first cut.
    for (let w = 0; w < perStream; w++) expect(batched[w]).toBeCloseTo(whole[w]!, 4);
  });

  it('scores a piece of a channel after a warm-up on the audio before it', async () => {
    const layout: StreamLayout = { minStreamSeconds: Infinity, maxStreams: 1, warmupWindows: 32 };
    const detector = await loadSileroVad(onnx, models, { modelId: TEST_VAD_MODEL_ID, layout });
    const piece = await detector.probabilities(samples, { from: 600, to: 1200 });
    expect(piece).toHaveLength(600);
    const alone = await scores(samples.subarray(568 * VAD_WINDOW, 1200 * VAD_WINDOW), ONE_PASS);
    for (let w = 0; w < 600; w++) expect(piece[w]).toBeCloseTo(alone[w + 32]!, 4);
    // The first piece has nothing before it: it is the start of one unbroken pass.
    const head = await detector.probabilities(samples, { to: 600 });
    for (let w = 0; w < 600; w++) expect(head[w]).toBeCloseTo(whole[w]!, 4);
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
