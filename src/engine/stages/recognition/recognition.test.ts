import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../../core/contract/response';
import {
  scratchDir,
  sentence,
  spokenFile,
  type TestLanguage,
} from '../../../../tools/testing/speech';
import { wordErrorRate } from '../../../../tools/testing/wer';
import { main } from '../../../hosts/node/cli';
import { REPO } from '../../../../tools/testing/ffmpeg-fixtures';

/**
 * Recognition through the CLI's whole pipeline (ffmpeg decoding, Silero VAD, the engine's
 * decoding loop) with the test model, on speech generated with voices, speeds and pitches the
 * model was not trained on. These check the shape and the timing rules of what the engine
 * returns, the language decisions, and word accuracy within the 15% asked of the pipeline
 * (the test model's measured error: tools/models/MODEL_CARD.md).
 */
const MODELS = join(REPO, '.models');
const MODEL = 'murmur-test/whisper-synth';
let dir = '';

function spoken(
  name: string,
  parts: { language: TestLanguage; text: string }[],
  pause = 1,
): string {
  return spokenFile(dir, name, parts, pause).path;
}

async function transcribe(file: string, ...fields: string[]): Promise<TranscriptionResponse> {
  let out = '';
  let err = '';
  const code = await main(['transcribe', file, '--models', MODELS, '--model', MODEL, ...fields], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
  });
  if (code !== 0) throw new Error(`murmur exited ${code}: ${err}`);
  return JSON.parse(out) as TranscriptionResponse;
}

beforeAll(() => {
  dir = scratchDir();
});

describe('recognition with the test model', () => {
  it('switches from English to French in automatic multiple languages', async () => {
    const english = sentence('en', 1100, 10);
    const french = sentence('fr', 1101, 10);
    const file = spokenFile(
      dir,
      'switch',
      [
        { language: 'en', text: english },
        { language: 'fr', text: french },
      ],
      1.5,
    );
    const response = await transcribe(
      file.path,
      '--language_behaviour',
      'automatic multiple languages',
    );
    const languages = response.prediction_raw.transcription.map((s) => s.language);
    expect(languages[0]).toBe('en');
    expect(languages.at(-1)).toBe('fr');
  });

  it('gives words with times inside their segments, leading spaces and confidences', async () => {
    const file = spoken('words', [{ language: 'en', text: sentence('en', 950, 8) }]);
    const { transcription } = (await transcribe(file)).prediction_raw;
    expect(transcription.length).toBeGreaterThan(0);
    let previous = 0;
    for (const segment of transcription) {
      expect(segment.transcription.startsWith(' ')).toBe(true);
      expect(segment.time_begin).toBeGreaterThanOrEqual(previous);
      expect(segment.time_end).toBeGreaterThanOrEqual(segment.time_begin);
      previous = segment.time_begin;
      for (const word of segment.words) {
        expect(word.word.startsWith(' ')).toBe(true);
        expect(word.time_begin).toBeGreaterThanOrEqual(segment.time_begin);
        expect(word.time_end).toBeLessThanOrEqual(segment.time_end);
        expect(word.time_end).toBeGreaterThanOrEqual(word.time_begin);
        expect(word.confidence).toBeGreaterThan(0);
        expect(word.confidence).toBeLessThanOrEqual(1);
      }
    }
  });

  it('gives every segment the one detected language in automatic single language', async () => {
    const file = spoken(
      'single',
      [
        { language: 'en', text: sentence('en', 960, 10) },
        { language: 'fr', text: sentence('fr', 962, 10) },
      ],
      1.5,
    );
    const single = await transcribe(file, '--language_behaviour', 'automatic single language');
    const languages = new Set(single.prediction_raw.transcription.map((s) => s.language));
    expect(languages.size).toBe(1);
  });

  it('finds no segments in silence', async () => {
    const file = join(dir, 'silence.wav');
    execFileSync('sox', ['-V1', '-D', '-n', '-r', '16000', '-c', '1', file, 'trim', '0', '8']);
    const response = await transcribe(file);
    expect(response.prediction_raw.transcription).toEqual([]);
  });

  it('renders SRT and VTT from the segments', async () => {
    const file = spoken('subtitles', [
      { language: 'es', text: sentence('es', 970, 6) },
      { language: 'es', text: sentence('es', 971, 6) },
    ]);
    const srt = await transcribe(
      file,
      '--output_format',
      'srt',
      '--language_behaviour',
      'manual',
      '--language',
      'spanish',
    );
    const count = srt.prediction_raw.transcription.length;
    expect(count).toBeGreaterThan(0);
    expect(srt.prediction.trimEnd().split('\n\n')).toHaveLength(count);
    const vtt = await transcribe(file, '--output_format', 'vtt');
    expect(vtt.prediction.startsWith('WEBVTT\n\n1\n')).toBe(true);
  });

  // The pipeline's accuracy bound, 15% a language, where a broken front end or decoding loop
  // gives 90-100%: the test model's word error rate through the engine is 1-9% on held-out
  // speech (tools/models/MODEL_CARD.md). Six sentences (48 words) per language, because on
  // fewer one word moves the rate by 3 points or more: on four, where the windows fell made
  // French 9.4% or 15.6% (one word), while over 24 files of six sentences the rate was 7.3%
  // and 7.4%.
  it.each([
    ['en', 'english', 0],
    ['fr', 'french', 1],
    ['de', 'german', 2],
    ['es', 'spanish', 3],
  ] as const)('hears new sentences in %s', async (language, name, i) => {
    const parts = [0, 1, 2, 3, 4, 5].map((k) => ({
      language,
      text: sentence(language, 1000 + 10 * i + k, 8),
    }));
    const file = spokenFile(dir, `wer-${language}`, parts, 1);
    const response = await transcribe(
      file.path,
      '--language_behaviour',
      'manual',
      '--language',
      name,
    );
    const heard = response.prediction_raw.transcription.map((s) => s.transcription).join('');
    const wer = wordErrorRate(file.text, heard);
    console.log(
      `${language}: WER ${(100 * wer).toFixed(1)}%\n said: ${file.text}\n heard:${heard}`,
    );
    expect(wer).toBeLessThanOrEqual(0.15);
  });
});
