import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WhisperFeatureExtractor } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { logMel, logMelPlan } from './log-mel';
import { REPO, SHARED, sharedMedia } from '../../../tools/testing/ffmpeg-fixtures';

function decode(path: string): Float32Array {
  const raw = execFileSync('ffmpeg', [
    ...['-v', 'quiet', '-i', path, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'],
  ]);
  return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4).slice();
}

const configs = {
  'whisper-tiny (30 s)': join(
    SHARED,
    'models',
    'whisper-configs',
    'tiny',
    'preprocessor_config.json',
  ),
  'the test model (10 s)': join(
    REPO,
    'tools',
    'models',
    'whisper-synth',
    'preprocessor_config.json',
  ),
};

describe("log-mel features as transformers.js' WhisperFeatureExtractor computes them", () => {
  const speech = decode(sharedMedia('speech/jfk.wav'));
  for (const [name, path] of Object.entries(configs)) {
    it.each([
      ['a whole window', speech],
      ['3 s followed by padding', speech.subarray(16000, 64000)],
      ['silence', new Float32Array(8000)],
    ])(`${name}: %s`, async (_, audio) => {
      const extractor = new WhisperFeatureExtractor(JSON.parse(readFileSync(path, 'utf8')));
      const { input_features } = (await extractor(audio)) as {
        input_features: { data: Float32Array; dims: number[] };
      };
      const config = extractor.config as unknown as Record<string, number>;
      const ours = logMel(
        logMelPlan({
          nFft: config.n_fft!,
          hop: config.hop_length!,
          windowSamples: config.n_samples!,
          frames: config.nb_max_frames!,
          window: (extractor as unknown as { window: Float64Array }).window,
          melFilters: (extractor.config as unknown as { mel_filters: number[][] }).mel_filters,
        }),
        audio,
      );
      expect(input_features.dims).toEqual([1, 80, config.nb_max_frames]);
      expect(ours.length).toBe(input_features.data.length);
      let worst = 0;
      for (let i = 0; i < ours.length; i++) {
        worst = Math.max(worst, Math.abs(ours[i]! - input_features.data[i]!));
      }
      expect(worst).toBeLessThan(1e-5);
    });
  }
});
