import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  pcm16k,
  scratchDir,
  sentence,
  speak,
  type TestLanguage,
} from '../../../../tools/testing/speech';
import { testEnginePorts } from '../../../../tools/testing/ffmpeg-fixtures';
import { toSeconds } from '../../../core/units';
import type { LoadedWhisper } from '../../ports';
import { DEFAULT_RECOGNITION_SETTINGS } from '../../stage-settings';
import { decodeBatch } from './decode-batch';
import { decodeWindow, type WindowDecode } from './decode-window';

/**
 * Windows decoded together as the rows of one batch choose the tokens each one would alone:
 * the test model, real speech of different lengths and languages, so that rows end at
 * different steps and leave the batch while others go on.
 */
let model: LoadedWhisper;
const windows: { audio: Float32Array; language: TestLanguage }[] = [];
const MAX_TOKENS = 120;

beforeAll(async () => {
  model = await testEnginePorts().recogniser({});
  const dir = scratchDir();
  const spoken: [TestLanguage, number, number, number][] = [
    // language, seed, words, speed
    ['en', 501, 4, 150],
    ['fr', 502, 14, 160],
    ['en', 503, 30, 170],
    ['de', 504, 9, 140],
    ['es', 505, 20, 155],
  ];
  for (const [language, seed, words, speed] of spoken) {
    const path = speak(
      language,
      sentence(language, seed, words),
      { variant: 'm3', speed, pitch: 45 },
      join(dir, `batch-${seed}.wav`),
    );
    windows.push({ audio: pcm16k(path).slice(0, model.windowSamples), language });
  }
});

const settings = DEFAULT_RECOGNITION_SETTINGS;
function alone(audio: Float32Array, language: string): Promise<WindowDecode> {
  return (async () =>
    decodeWindow(model, await model.encode(await model.features(audio)), toSeconds(audio.length), {
      language,
      task: 'transcribe',
      hintTokens: [],
      contextTokens: [],
      temperatures: [0],
      fallback: settings.fallback,
      contextDoubt: settings.contextDoubt,
      maxNewTokens: MAX_TOKENS,
      random: () => 0.5,
    }))();
}

async function together(indices: readonly number[], hintTokens: number[] = []) {
  const chosen = indices.map((i) => windows[i]!);
  const encoded = await model.encodeBatch(
    await Promise.all(chosen.map((w) => model.features(w.audio))),
  );
  return decodeBatch(
    model,
    chosen.map((w, i) => ({
      encoded: encoded[i]!,
      seconds: toSeconds(w.audio.length),
      language: w.language,
      maxNewTokens: MAX_TOKENS,
    })),
    { task: 'transcribe', hintTokens },
  );
}

describe('windows decoded in one batch', () => {
  it('choose every token each window chooses alone, with the same timings and no-speech reading', async () => {
    const batch = await together([0, 1, 2, 3, 4]);
    const lengths = new Set<number>();
    for (const [i, w] of windows.entries()) {
      const single = await alone(w.audio, w.language);
      const row = batch[i]!;
      expect(row.sampled).toEqual(single.sampled);
      expect(row.finished).toBe(single.finished);
      expect(row.noSpeechProbability).toBeCloseTo(single.noSpeechProbability, 4);
      expect(row.averageLogProbability).toBeCloseTo(single.averageLogProbability, 3);
      expect(row.probabilities.length).toBe(single.probabilities.length);
      row.probabilities.forEach((p, k) => expect(p).toBeCloseTo(single.probabilities[k]!, 3));
      // Word timings come from the alignment heads' rows: the same frames stand out.
      expect(row.attention.length).toBe(single.attention.length);
      expect(row.finalAttention.length).toBe(single.finalAttention.length);
      const peak = (rows: Float32Array[]) => rows.map((r) => r.indexOf(Math.max(...r)));
      row.attention.forEach((rows, k) => expect(peak(rows)).toEqual(peak(single.attention[k]!)));
      lengths.add(row.sampled.length);
    }
    // Rows of several lengths: the batch shrank as they ended.
    expect(lengths.size).toBeGreaterThan(2);
  });

  it('give each window the same tokens in whatever order and company it comes', async () => {
    const forward = await together([0, 1, 2, 3, 4]);
    const backward = await together([4, 3, 2, 1, 0]);
    const pair = await together([2, 0]);
    forward.forEach((row, i) => expect(backward[4 - i]!.sampled).toEqual(row.sampled));
    expect(pair[0]!.sampled).toEqual(forward[2]!.sampled);
    expect(pair[1]!.sampled).toEqual(forward[0]!.sampled);
  });

  it('show every row the hint', async () => {
    const hint = model.encodeText(' the meeting');
    const batch = await together([0, 2], hint);
    const single = await (async () => {
      const w = windows[2]!;
      return decodeWindow(
        model,
        await model.encode(await model.features(w.audio)),
        toSeconds(w.audio.length),
        {
          language: w.language,
          task: 'transcribe',
          hintTokens: hint,
          contextTokens: [],
          temperatures: [0],
          fallback: settings.fallback,
          contextDoubt: settings.contextDoubt,
          maxNewTokens: MAX_TOKENS,
          random: () => 0.5,
        },
      );
    })();
    expect(batch[1]!.sampled).toEqual(single.sampled);
  });
});
